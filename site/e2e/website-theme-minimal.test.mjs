// The public website in the minimal theme: see website-theme.mjs.
import { themeTests } from './website-theme.mjs';

themeTests('minimal');
