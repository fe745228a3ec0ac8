// The public website in the vibrant theme: see website-theme.mjs.
import { themeTests } from './website-theme.mjs';

themeTests('vibrant');
