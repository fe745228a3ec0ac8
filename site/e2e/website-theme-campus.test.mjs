// The public website in the campus theme: see website-theme.mjs.
import { themeTests } from './website-theme.mjs';

themeTests('campus');
