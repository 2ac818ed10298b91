import type { PacClient, Unavailable } from './types';

export const NOT_CONFIGURED_DETAIL = 'live PAC not configured: set PAC_URL, PAC_USERNAME, PAC_PASSWORD';

/**
 * Live mode without PAC credentials: every call is `unavailable` (nothing was sent, so nothing can be
 * ambiguous), which keeps documents retryable once an operator configures the PAC.
 */
export class NullPac implements PacClient {
  private readonly result: Unavailable = { outcome: 'unavailable', reason: 'not_configured', detail: NOT_CONFIGURED_DETAIL };
  private readonly answer = async (): Promise<Unavailable> => this.result;

  stamp = this.answer;
  lookupStamped = this.answer;
  cancel = this.answer;
  satStatus = this.answer;
  receipt = this.answer;
  registerCsd = this.answer;
  updateCsd = this.answer;
  getCsd = this.answer;
}
