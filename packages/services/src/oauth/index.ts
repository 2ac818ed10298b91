export { OAuthError } from './oauth-error';
export { listConnectedClients, revokeConnectedClient, type ConnectedClient } from './connections';
export { grantedScope, OAUTH_SCOPES, scopeAllowsWrite, type OAuthScope } from './scopes';
export { registerOAuthClient, retrieveOAuthClient, type OAuthClient } from './clients';
export {
  approveAuthorization,
  attachSignedInUser,
  denyAuthorization,
  grantableMerchants,
  loadPendingAuthorization,
  oauthConsentRefusal,
  startAuthorization,
  type AuthorizationRequest,
  type PendingAuthorization,
} from './authorizations';
export {
  ACCESS_TOKEN_SECONDS,
  authenticateAccessToken,
  exchangeAuthorizationCode,
  refreshAccessToken,
  revokeOAuthToken,
  type OAuthAuthenticated,
  type TokenResponse,
} from './tokens';
