import fs from 'node:fs';
import path from 'node:path';
import markdownIt, { type Env, type MarkdownIt } from 'markdown-it';

/**
 * The repository's `docs/` folder: beside the bundle in dist/ (the build copies it there, so the production image
 * carries what it serves), or the repository's own when running from source.
 */
export function findDocsDir(): string {
  const candidates = [path.join(__dirname, 'docs'), path.resolve(__dirname, '../../../../docs')];
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, 'api-guide.md')));
  if (!found) throw new Error(`the docs folder is missing (looked in ${candidates.join(', ')})`);
  return found;
}

export interface Guide {
  slug: string;
  title: string;
  html: string;
}

/** GitHub's heading anchors, so links written for the repository (`api-guide.md#top-ups-stripe`) work here. */
export function headingSlug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function headingIds(md: MarkdownIt): void {
  md.core.ruler.push('heading_ids', (state) => {
    const seen = new Map<string, number>();
    state.tokens.forEach((token, i) => {
      if (token.type !== 'heading_open') return;
      const text = (state.tokens[i + 1]?.children ?? [])
        .filter((child) => child.type === 'text' || child.type === 'code_inline')
        .map((child) => child.content)
        .join('');
      const base = headingSlug(text);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      token.attrSet('id', count ? `${base}-${count}` : base);
    });
  });
}

interface RenderEnv extends Env {
  /** Relative link targets in docs/ that are served here: `api-guide.md` → `/docs/api-guide`. */
  served?: Map<string, string>;
  dropped?: boolean;
}
const NOTHING_SERVED = new Map<string, string>();

/**
 * Where a link in a guide goes on this site: another guide (`mcp.md#oauth-21` → `/docs/mcp#oauth-21`), an image in
 * docs/ (`/docs/assets/…`), or nowhere: repository files (source, README, benches) are not served, so the link
 * becomes its text rather than a dead link.
 */
export function siteHref(href: string, served: Map<string, string>): string | null {
  // Another site, an anchor on this page, or a page of this site by its path (`/docs/reference`).
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#') || /^\/docs(\/|$)/.test(href)) return href;
  const [target = '', fragment] = href.split('#', 2);
  const page = served.get(path.posix.normalize(target));
  if (page === undefined) return null;
  return fragment === undefined ? page : `${page}#${fragment}`;
}

function siteLinks(md: MarkdownIt): void {
  md.renderer.rules.link_open = (tokens, i, options, env, self) => {
    const site: RenderEnv = env ?? {};
    const href = siteHref(String(tokens[i]!.attrGet('href') ?? ''), site.served ?? NOTHING_SERVED);
    if (href === null) {
      site.dropped = true;
      return '';
    }
    tokens[i]!.attrSet('href', href);
    return self.renderToken(tokens, i, options);
  };
  md.renderer.rules.link_close = (tokens, i, options, env, self) => {
    const site: RenderEnv = env ?? {};
    if (!site.dropped) return self.renderToken(tokens, i, options);
    site.dropped = false;
    return '';
  };
  md.renderer.rules.image = (tokens, i, options, env, self) => {
    const src = siteHref(
      String(tokens[i]!.attrGet('src') ?? ''),
      (env as RenderEnv | undefined)?.served ?? NOTHING_SERVED,
    );
    if (src === null) return md.utils.escapeHtml(tokens[i]!.content);
    tokens[i]!.attrSet('src', src);
    tokens[i]!.attrSet('alt', tokens[i]!.content);
    return self.renderToken(tokens, i, options);
  };
  // Wide tables scroll inside the page instead of widening it.
  md.renderer.rules.table_open = () => '<div class="table"><table>\n';
  md.renderer.rules.table_close = () => '</table></div>\n';
}

export function createMarkdown(): MarkdownIt {
  // Raw HTML in the markdown is shown as text, never passed through.
  const md = markdownIt({ html: false, linkify: false, typographer: false });
  headingIds(md);
  siteLinks(md);
  return md;
}

/**
 * Every `docs/*.md` as a page at `/docs/<name>`, the images beside them at `/docs/assets/<path>`, and the Spanish
 * translations in `docs/es/<name>.md`, served at `/docs/es/<name>`, whose links to another guide stay in Spanish
 * (`/docs/es/<other>`: its translation, or the English guide in the Spanish frame until there is one).
 */
export function loadGuides(docsDir: string): {
  guides: Map<string, Guide>;
  spanish: Map<string, Guide>;
  images: Map<string, string>;
} {
  const images = new Map<string, string>();
  const served = new Map<string, string>();
  for (const entry of fs.readdirSync(docsDir, { recursive: true, encoding: 'utf8' })) {
    const file = entry.split(path.sep).join('/');
    if (/\.(png|jpe?g|webp|svg)$/.test(file)) {
      images.set(file, path.join(docsDir, file));
      served.set(file, `/docs/assets/${file}`);
    } else if (/^[a-z0-9-]+\.md$/.test(file)) served.set(file, `/docs/${file.slice(0, -3)}`);
  }
  const md = createMarkdown();
  const guides = new Map<string, Guide>();
  for (const [file, href] of served) {
    if (!file.endsWith('.md')) continue;
    const source = fs.readFileSync(path.join(docsDir, file), 'utf8');
    const title = /^# (.+)$/m.exec(source)?.[1] ?? file;
    const slug = href.slice('/docs/'.length);
    guides.set(slug, { slug, title, html: md.render(source, { served } satisfies RenderEnv) });
  }
  const servedInSpanish = new Map(
    [...served].map(([file, href]) => [
      file,
      file.endsWith('.md') ? href.replace('/docs/', '/docs/es/') : href,
    ]),
  );
  // Images are referred to from docs/es/ as `../console/x.png`, and the English guide itself as `../api-guide.md`.
  for (const [file, href] of served) servedInSpanish.set(`../${file}`, href);
  const spanish = new Map<string, Guide>();
  const spanishDir = path.join(docsDir, 'es');
  for (const file of fs.existsSync(spanishDir) ? fs.readdirSync(spanishDir) : []) {
    if (!/^[a-z0-9-]+\.md$/.test(file)) continue;
    const source = fs.readFileSync(path.join(spanishDir, file), 'utf8');
    const slug = file.slice(0, -3);
    const title = /^# (.+)$/m.exec(source)?.[1] ?? file;
    spanish.set(slug, {
      slug,
      title,
      html: md.render(source, { served: servedInSpanish } satisfies RenderEnv),
    });
  }
  return { guides, spanish, images };
}
