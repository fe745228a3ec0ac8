// The public website in the modern theme: see website-theme.mjs.
import { themeTests } from './website-theme.mjs';

themeTests('modern');
