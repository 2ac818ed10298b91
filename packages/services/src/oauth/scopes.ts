/**
 * What an OAuth connection may do with the tool server: `read` (find and read documents, catalogs, the balance) and
 * `write` (stamp, cancel, pay, e-mail, save customers and products). Write implies read. `mcp`, the one scope
 * before these two, and a request without a scope grant both, so connections made before keep working.
 */
export const OAUTH_SCOPES = ['read', 'write'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

const EVERYTHING = 'read write';

/** The scope to grant for a requested `scope` parameter (space-separated), or null when it names an unknown one. */
export function grantedScope(requested: string | null | undefined): string | null {
  const names = (requested ?? '').split(' ').filter(Boolean);
  if (names.length === 0 || names.includes('mcp')) return EVERYTHING;
  if (names.some((name) => !(OAUTH_SCOPES as readonly string[]).includes(name))) return null;
  return names.includes('write') ? EVERYTHING : 'read';
}

/** Whether a stored grant scope (null and `mcp` before scopes existed) allows the write tools. */
export const scopeAllowsWrite = (scope: string | null): boolean =>
  scope === null || scope.split(' ').some((name) => name === 'write' || name === 'mcp');
