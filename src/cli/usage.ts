/** Each command's usage line, apart from the commands so that `--help` loads none of them. */
export const CRAWL_USAGE = `usage: webcorpus crawl DOMAIN [--budget N] [--refresh] [--force] [--shots N] [--json]`;

export const INSPECT_USAGE = `usage: webcorpus inspect FILE --url URL [--header NAME:VALUE]... [--explain] [--compact]`;

export const KEYS_USAGE = `usage: webcorpus keys create NAME [--read-only]   print a new key (shown once)
       webcorpus keys list                       names, prefixes, rights (never the keys)
       webcorpus keys revoke NAME`;

export const SERVE_USAGE = `usage: webcorpus serve [--host ADDR] [--port N] [--no-worker]`;

export const SHELVES_USAGE = `usage: webcorpus shelves list [--json]
       webcorpus shelves show SLUG [--json]
       webcorpus shelves put SLUG [--name NAME] [--description TEXT]
       webcorpus shelves add SLUG DOMAIN... [--reason TEXT] [--placed-by person|agent]
       webcorpus shelves remove SLUG DOMAIN...
       webcorpus shelves crawl SLUG [--budget N] [--refresh] [--uncrawled]`;
