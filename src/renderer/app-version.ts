// The version bug reports name. Vite inlines only this field of package.json into the page
// (named JSON imports are tree-shaken), the same number Electron's app.getVersion() gives.
import { version } from '../../package.json';

export const APP_VERSION: string | null = typeof version === 'string' ? version : null;
