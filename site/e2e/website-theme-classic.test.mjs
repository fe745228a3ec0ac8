// The public website in the classic theme: see website-theme.mjs.
import { themeTests } from './website-theme.mjs';

themeTests('classic');
