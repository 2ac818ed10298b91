/** Attempts of one e-mail and the backoff between them (config EMAIL_*), passed in so the workflow reads no environment. */
export interface EmailRetryPolicy {
  maxAttempts: number;
  firstSeconds: number;
  maxSeconds: number;
}

export interface SendEmailInput {
  deliveryId: string;
  retry: EmailRetryPolicy;
}

/** One attempt as recorded: the delivery's status, and whether a temporary failure leaves attempts to make. */
export interface EmailAttempt {
  status: 'queued' | 'sent' | 'failed';
  retry: boolean;
}
