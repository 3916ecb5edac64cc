import { z } from 'zod';

/**
 * The `z` every shared schema uses. Our CSP forbids eval; zod would otherwise probe for it when a schema is
 * created (to compile faster parsers), and browsers report that as a CSP violation. Importing `z` from here
 * guarantees the setting comes first. Parsing stays fast enough for form-sized input.
 */
z.config({ jitless: true });

export { z };
