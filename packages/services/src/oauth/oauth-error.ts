/** An OAuth 2.1 error answered as `{error, error_description}` (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 7009). */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    description: string,
    readonly status = 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}
