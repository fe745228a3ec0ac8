// Browser test of issue 35 in the panel: French and Arabic chosen in Site settings through the
// screen; a page's title and content translated into both in the editor, switching languages with
// unsaved edits (nothing lost, the leave guard counts them), Arabic kept back then published; the
// Arabic inputs right-to-left; axe on the editor; the list's translation status; and the server's
// refusal to change the default language while translations exist, shown beside the field.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { axeViolations, loginAndWait, useAdminBrowser } from './helpers.mjs';

const RUN = Date.now().toString(36);
const TITLE = `E2E Languages ${RUN}`;
const FR_TITLE = `À propos ${RUN}`;
const FR_TEXT = 'Bienvenue dans notre école';
const AR_TITLE = `من نحن ${RUN}`;
const AR_TEXT = 'مرحبا بكم في مدرستنا';
const { withPage, call } = useAdminBrowser({ timeout: 20_000 });

let pageId;
let settingsBefore;

after(async () => {
  // The site goes back to its languages: the page's translations first (a language records are
  // translated into cannot be removed), then the settings.
  if (pageId) {
    const p = (await call('GET', `/pages/${pageId}`)).result;
    await call('PATCH', `/pages/${pageId}`, { translations: { fr: null, ar: null }, version: p.version }).catch(() => {});
    await call('DELETE', `/pages/${pageId}`).catch(() => {});
  }
  if (settingsBefore) {
    const now = (await call('GET', '/site-settings')).result;
    await call('PATCH', '/site-settings', { defaultLanguage: settingsBefore.defaultLanguage ?? 'en', languages: settingsBefore.languages ?? [], version: now.version });
  }
});

/** spaced reads typed rich text with its no-break spaces (Quill's, as typed) as plain ones. */
const spaced = (s) => s.replace(/\u00a0|&nbsp;/g, ' ');

/** quillIn is the rich-text editor of the translation's row whose caption names field. */
const quillIn = (panel, field) => panel.locator('.translation-row').filter({ hasText: `${field} in English` }).locator('.ql-editor');

describe('languages in the panel', () => {
  test('choose French and Arabic, translate a page in both, keep Arabic back then publish it, see the status', async () => {
    settingsBefore = (await call('GET', '/site-settings')).result;
    pageId = (await call('POST', '/pages', { title: TITLE, slug: `e2e-languages-${RUN}`, content: '<p>Welcome to our school</p>', isPublished: true, status: true })).result.id;

    await withPage(async (page) => {
      await loginAndWait(page);

      // Site settings: the others chosen by their own names.
      await page.goto('/site-settings');
      const settings = page.getByRole('form', { name: 'Site Settings' });
      await settings.getByRole('group', { name: 'Other languages' }).waitFor();
      const others = settings.getByRole('group', { name: 'Other languages' });
      await others.getByText('Français', { exact: true }).click();
      await others.getByText('العربية', { exact: true }).click();
      assert.equal(await others.getByRole('checkbox', { name: /^Français \(French\)/ }).isChecked(), true);
      assert.equal(await others.getByRole('checkbox', { name: /^العربية \(Arabic\)/ }).isChecked(), true);
      assert.equal(await settings.getByRole('combobox', { name: 'Default language' }).inputValue(), 'en');
      await settings.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('Site settings updated!').waitFor();
      assert.deepEqual((await call('GET', '/site-settings')).result.languages, ['fr', 'ar']);

      // The page editor: a language switch, French first.
      await page.goto(`/pages/${pageId}`);
      const editor = page.getByRole('form', { name: 'Edit Page' });
      await editor.getByLabel('Title*').waitFor();
      const tabs = editor.getByRole('tablist', { name: 'Language' });
      await tabs.getByRole('tab', { name: /English/ }).waitFor();
      assert.equal(await tabs.getByRole('tab', { name: /English/ }).getAttribute('aria-selected'), 'true');
      await tabs.getByRole('tab', { name: /Français/ }).click();
      const panel = editor.getByRole('tabpanel');
      await panel.getByText('Welcome to our school').waitFor(); // the default text, for reference
      await panel.getByText('Not translated yet').first().waitFor();
      await panel.getByLabel('Title', { exact: true }).fill(FR_TITLE);
      await quillIn(panel, 'Content').click();
      await page.keyboard.type(FR_TEXT);
      await editor.getByText('Unsaved changes').first().waitFor();

      // The keyboard moves to Arabic; the French edits stay unsaved meanwhile.
      await tabs.getByRole('tab', { name: /Français/ }).focus();
      await page.keyboard.press('ArrowRight');
      assert.equal(await tabs.getByRole('tab', { name: /العربية/ }).getAttribute('aria-selected'), 'true');
      const arTitle = panel.getByLabel('Title', { exact: true });
      assert.equal(await arTitle.inputValue(), '');
      assert.equal(await arTitle.getAttribute('dir'), 'rtl');
      assert.equal(await arTitle.getAttribute('lang'), 'ar');
      await arTitle.fill(AR_TITLE);
      await quillIn(panel, 'Content').click();
      await page.keyboard.type(AR_TEXT);
      assert.equal(await quillIn(panel, 'Content').evaluate((el) => getComputedStyle(el).direction), 'rtl');
      assert.equal(await panel.locator('.translation-ref__text').first().getAttribute('dir'), 'ltr');
      // Kept back while it is being written.
      await panel.getByText('Publish this translation', { exact: true }).click();
      assert.equal(await panel.getByRole('checkbox', { name: 'Publish this translation' }).isChecked(), false);
      assert.deepEqual(await axeViolations(page, 'form.page-editor'), []);

      // Back to French and to English: nothing lost.
      await tabs.getByRole('tab', { name: /Français/ }).click();
      assert.equal(await panel.getByLabel('Title', { exact: true }).inputValue(), FR_TITLE);
      assert.match(spaced(await quillIn(panel, 'Content').innerText()), new RegExp(FR_TEXT));
      assert.equal(await panel.getByLabel('Title', { exact: true }).getAttribute('dir'), 'ltr');
      await tabs.getByRole('tab', { name: /English/ }).click();
      assert.equal(await editor.getByLabel('Title*').inputValue(), TITLE);

      // The leave guard counts the translations' edits.
      await page.getByRole('link', { name: 'Pages', exact: true }).click();
      const ask = page.getByRole('dialog').filter({ hasText: 'You have unsaved changes' });
      await ask.getByRole('button', { name: 'No' }).click();
      await ask.waitFor({ state: 'detached' });

      // One Save sends both languages.
      await editor.getByRole('button', { name: 'Save', exact: true }).first().click();
      await editor.getByText('Unsaved changes').first().waitFor({ state: 'detached' });
      let saved = (await call('GET', `/pages/${pageId}`)).result;
      assert.equal(saved.translations.fr.title, FR_TITLE);
      assert.match(spaced(saved.translations.fr.content), new RegExp(FR_TEXT));
      assert.equal(saved.translations.ar.title, AR_TITLE);
      assert.match(spaced(saved.translations.ar.content), new RegExp(AR_TEXT));
      assert.equal(saved.translations.ar.published, false);
      assert.notEqual(saved.translations.fr.published, false);

      // Arabic published.
      await tabs.getByRole('tab', { name: /العربية/ }).click();
      assert.equal(await panel.getByLabel('Title', { exact: true }).inputValue(), AR_TITLE);
      await panel.getByText('Publish this translation', { exact: true }).click();
      assert.equal(await panel.getByRole('checkbox', { name: 'Publish this translation' }).isChecked(), true);
      await editor.getByRole('button', { name: 'Save', exact: true }).first().click();
      await editor.getByText('Unsaved changes').first().waitFor({ state: 'detached' });
      saved = (await call('GET', `/pages/${pageId}`)).result;
      assert.notEqual(saved.translations.ar.published, false);

      // The list: each other language's status.
      await page.getByRole('link', { name: 'Pages', exact: true }).click();
      await page.waitForURL('**/pages');
      await page.getByPlaceholder(/^Search/).fill(TITLE);
      const row = page.getByRole('row').filter({ hasText: TITLE });
      const badges = row.getByRole('list', { name: 'Translations' });
      await badges.waitFor();
      const text = await badges.innerText();
      for (const code of ['FR', 'AR']) {
        const m = new RegExp(`${code} (\\d+)/(\\d+)`).exec(text);
        assert.ok(m, `${code} status in ${text}`);
        assert.ok(Number(m[1]) >= 2 && Number(m[1]) <= Number(m[2]), text);
      }

      // The default cannot change while translations exist: the server's answer beside the field.
      await page.goto('/site-settings');
      await settings.getByRole('combobox', { name: 'Default language' }).selectOption('fr');
      await settings.getByRole('button', { name: 'Save Changes' }).click();
      await settings.getByText(/The default language cannot change from English/).waitFor();
      assert.equal((await call('GET', '/site-settings')).result.defaultLanguage ?? 'en', 'en');
    });
  });
});
