import { webhookRetryDelayMs } from './webhook-backoff';

const policy = { firstSeconds: 60, maxSeconds: 7200, windowSeconds: 259_200 };

it('doubles from the first delay up to the cap, with ±20 % jitter', () => {
  expect([1, 2, 3, 4].map((attempt) => webhookRetryDelayMs(attempt, policy, 0.5))).toEqual([
    60_000, 120_000, 240_000, 480_000,
  ]);
  expect(webhookRetryDelayMs(20, policy, 0.5)).toBe(7_200_000);
  expect(webhookRetryDelayMs(1, policy, 0)).toBe(48_000);
  expect(webhookRetryDelayMs(1, policy, 0.999999)).toBeCloseTo(72_000, -1);
});

it('keeps retrying for the 3-day window: about 40 attempts with the defaults', () => {
  let elapsed = 0;
  let attempts = 1;
  while (elapsed + webhookRetryDelayMs(attempts, policy, 0.5) <= policy.windowSeconds * 1000) {
    elapsed += webhookRetryDelayMs(attempts, policy, 0.5);
    attempts += 1;
  }
  expect(attempts).toBeGreaterThan(30);
  expect(attempts).toBeLessThan(45);
});
