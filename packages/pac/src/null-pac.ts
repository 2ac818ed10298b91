import type { PacClient, Unavailable } from './types';

export const NOT_CONFIGURED_DETAIL = 'live PAC not configured: set PAC_URL, PAC_USERNAME, PAC_PASSWORD';

/**
 * Live mode without PAC credentials: every call is `unavailable` (nothing was sent, so nothing can be
 * ambiguous), which keeps documents retryable once an operator configures the PAC.
 */
export class NullPac implements PacClient {
  private readonly result: Unavailable = {
    outcome: 'unavailable',
    reason: 'not_configured',
    detail: NOT_CONFIGURED_DETAIL,
  };
  private readonly answer = async (): Promise<Unavailable> => this.result;

  stamp: PacClient['stamp'] = this.answer;
  lookupStamped: PacClient['lookupStamped'] = this.answer;
  stampRetention: PacClient['stampRetention'] = this.answer;
  lookupStampedRetention: PacClient['lookupStampedRetention'] = this.answer;
  cancelRetention: PacClient['cancelRetention'] = this.answer;
  cancel: PacClient['cancel'] = this.answer;
  satStatus: PacClient['satStatus'] = this.answer;
  receipt: PacClient['receipt'] = this.answer;
  registerCsd: PacClient['registerCsd'] = this.answer;
  updateCsd: PacClient['updateCsd'] = this.answer;
  getCsd: PacClient['getCsd'] = this.answer;
}
