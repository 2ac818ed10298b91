export { OAuthError } from './oauth-error';
export { registerOAuthClient, retrieveOAuthClient, type OAuthClient } from './clients';
export {
  approveAuthorization, attachSignedInUser, denyAuthorization, grantableMerchants, loadPendingAuthorization, startAuthorization,
  type AuthorizationRequest, type PendingAuthorization,
} from './authorizations';
export {
  ACCESS_TOKEN_SECONDS, authenticateAccessToken, exchangeAuthorizationCode, refreshAccessToken, revokeOAuthToken,
  type OAuthAuthenticated, type TokenResponse,
} from './tokens';
