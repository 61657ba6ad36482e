// The page's Content-Security-Policy allows no eval. Zod compiles object parsers with
// `new Function` unless told not to, and even its probe for that shows up as a CSP violation, so
// it is switched off before any schema is built: import this module before any module that
// defines zod schemas (ES modules run their imports in order).

import { z } from 'zod';

z.config({ jitless: true });
