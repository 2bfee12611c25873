import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seedContent } from '../../../shared/store/seed-content';
import {
  STORE_PATH,
  STORE_PREVIEW_PATH,
  STORE_PUBLISH_PATH,
  STORE_VERSIONS_PATH,
  type StoreVersion,
} from '../../../shared/store/store-api';
import * as z from 'zod/mini';
import {
  fieldErrors,
  storeContentSchema,
  type StoreContent,
} from '../../../shared/store/store-content';
import { fakeApi, type FakeRequest } from '../../../../tests/support/client/fake-api';
import { CODES_PATH } from '../../../shared/codes/codes-api';
import { STORE_SCHEDULE_PATH } from '../../../shared/store/schedule-api';
import { StorePage } from './store-page';

/** A store on the fake server: the draft, and each published version's content. */
function fakeStore() {
  const store = {
    draft: seedContent(),
    versions: [{ content: seedContent(), publishedAt: '2026-11-20T10:00:00.000Z' }],
  };
  const state = () => {
    const live = store.versions.length;
    const { content, publishedAt } = store.versions[live - 1]!;
    // The seed's $89 was never charged: what the server's price history says of it.
    const check = {
      since: '2026-11-20T10:00:00.000Z',
      lowest30Cents: null,
      formerDays: 0,
      warnings: ['The former price $89.00 was never charged: no published version sold at it.'],
    };
    return {
      draft: store.draft,
      published: { version: live, publishedAt, content },
      files: {},
      prices: { rules: 'eu', live: check, draft: check },
    };
  };
  const publish = (content: StoreContent) => {
    store.versions.push({ content, publishedAt: '2026-11-25T12:00:00.000Z' });
    return { status: 200, body: { version: store.versions.length } };
  };
  fakeApi({
    [STORE_PATH]: (request: FakeRequest) => {
      if (request.method === 'PUT') {
        // The server's own check: the shared schema, each bad field by its path.
        const parsed = z.safeParse(
          storeContentSchema,
          (request.body as { content: unknown }).content,
        );
        if (!parsed.success) {
          return {
            status: 400,
            body: {
              error: 'Bad Request',
              message: 'Some fields need your attention.',
              fields: fieldErrors(parsed.error),
            },
          };
        }
        store.draft = parsed.data;
      }
      return { status: 200, body: state() };
    },
    [STORE_PUBLISH_PATH]: () => publish(store.draft),
    [STORE_VERSIONS_PATH]: () => {
      const rows: StoreVersion[] = store.versions
        .map((version, index) => ({
          version: index + 1,
          publishedAt: version.publishedAt,
          by: 'owner@example.com',
        }))
        .reverse();
      return { status: 200, body: { rows } };
    },
    [`${STORE_VERSIONS_PATH}/*`]: (request) => {
      const version = Number(request.path.split('/').at(-2));
      store.draft = store.versions[version - 1]!.content;
      return publish(store.draft);
    },
    // The Codes section below the form: no codes yet.
    [CODES_PATH]: { status: 200, body: { rows: [] } },
    // The Scheduled publish section: nothing scheduled.
    [STORE_SCHEDULE_PATH]: { status: 200, body: { schedule: null } },
    [STORE_PREVIEW_PATH]: (request) => {
      const { content } = request.body as { content: StoreContent };
      return { status: 200, text: `<html><body><h1>${content.hero.title}</h1></body></html>` };
    },
  });
  return store;
}

/**
 * The control the label `name` is for. (getByLabelText takes seconds on a form this size in
 * jsdom; this finds the same control through the label's `for`.)
 */
function field(name: string): HTMLInputElement {
  const label = screen.getByText(name, { selector: 'label' }) as HTMLLabelElement;
  return document.getElementById(label.htmlFor) as HTMLInputElement;
}
const type = (name: string, value: string) => fireEvent.change(field(name), { target: { value } });
const click = async (name: string | RegExp) => {
  await act(async () => {
    // By its text, or by its label for a button that shows an icon only.
    const labelled =
      typeof name === 'string' ? document.querySelector(`button[aria-label="${name}"]`) : null;
    fireEvent.click(labelled ?? screen.getByText(name, { selector: 'button' }));
  });
};

beforeEach(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Store page', () => {
  it('loads the draft into the form with the prices computed as the page shows them', async () => {
    fakeStore();
    render(<StorePage />);
    expect(await screen.findByDisplayValue('Soul Reset Bundle')).toBeTruthy();
    expect(field('Price').value).toBe('27');
    expect(field('Former price (optional)').value).toBe('89');
    expect(field('Headline').value).toBe(seedContent().hero.title);
    expect(screen.getByText(/Shown as/).textContent).toBe(
      'Shown as $27 instead of $89: 70% off, save $62.',
    );
    expect(screen.getByText('Live: version 1')).toBeTruthy();
    const history = screen.getByTestId('price-history');
    expect(history.textContent).toMatch(
      /Lowest price in the 30 days before the saved price took effect \(.*2026\): none/,
    );
    expect(history.textContent).toContain('PRICE_RULES=eu');
    expect(within(history).getByRole('status').textContent).toContain(
      'The former price $89.00 was never charged',
    );
    expect(await screen.findByText('Version 1')).toBeTruthy();
    expect(screen.queryByText('Unsaved changes')).toBeNull();
  });

  it('saves a sale with its end as an ISO time, and refuses one without an end', async () => {
    const store = fakeStore();
    render(<StorePage />);
    await screen.findByDisplayValue('Soul Reset Bundle');
    type('Sale price (optional)', '19');
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('Enter when the sale ends.')).toBeTruthy();
    type('Sale ends', '2031-12-01T18:00');
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await vi.waitFor(() =>
      expect(store.draft.product.sale).toEqual({
        priceCents: 1900,
        endsAt: new Date('2031-12-01T18:00').toISOString(),
      }),
    );
    // Two validations of the whole form: about 7 s on two busy cores.
  }, 20_000);

  it('saves a changed price and headline as the draft, in cents', async () => {
    const store = fakeStore();
    render(<StorePage />);
    await screen.findByDisplayValue('Soul Reset Bundle');
    type('Price', '35.50');
    type('Headline', 'Breathe out: a calmer month starts today');
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
    expect(screen.getByText(/Shown as/).textContent).toBe(
      'Shown as $35.50 instead of $89: 60% off, save $53.50.',
    );
    type('Currency', 'dollars');
    expect(screen.queryByText(/Shown as/)).toBeNull();
    type('Currency', 'usd');

    await click('Save draft');
    expect(await screen.findByText(/Draft saved/)).toBeTruthy();
    expect(store.draft.product.priceCents).toBe(3550);
    expect(store.draft.hero.title).toBe('Breathe out: a calmer month starts today');
    expect(screen.queryByText('Unsaved changes')).toBeNull();
  });

  it('shows a price that is not a number, and the server’s field errors, at their fields', async () => {
    const store = fakeStore();
    render(<StorePage />);
    await screen.findByDisplayValue('Soul Reset Bundle');
    type('Price', 'twenty');
    await click('Save draft');
    expect(field('Price').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Enter the price as a number, such as 27 or 27.50.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Some fields need your attention.');
    expect(store.draft.product.priceCents).toBe(2700);

    type('Price', '27');
    type('Headline', '  ');
    await click('Save draft');
    expect(await screen.findByText('The headline cannot be empty.')).toBeTruthy();
    expect(field('Headline').getAttribute('aria-invalid')).toBe('true');
    expect(store.draft.hero.title).toBe(seedContent().hero.title);
  });

  it('previews the form at phone and desktop widths without publishing', async () => {
    const store = fakeStore();
    render(<StorePage />);
    await screen.findByDisplayValue('Soul Reset Bundle');
    type('Headline', 'A preview headline');
    await click('Preview');
    const frames = await screen.findAllByTitle(/Preview at/);
    expect(frames.map((frame) => frame.getAttribute('width'))).toEqual(['375', '1280']);
    expect(frames[0]!.getAttribute('srcdoc')).toContain('<h1>A preview headline</h1>');
    expect(frames[0]!.getAttribute('sandbox')).toBe('allow-same-origin');
    expect(store.versions).toHaveLength(1);
    expect(store.draft.hero.title).toBe(seedContent().hero.title);
  });

  it('publishes the form (saving it first) and restores an earlier version', async () => {
    const store = fakeStore();
    render(<StorePage />);
    await screen.findByDisplayValue('Soul Reset Bundle');
    type('Price', '19');
    await click('Publish');
    expect(await screen.findByText(/Version 2 is live/)).toBeTruthy();
    expect(store.versions[1]!.content.product.priceCents).toBe(1900);
    expect(await screen.findByText('Live: version 2')).toBeTruthy();

    const versions = screen.getByRole('region', { name: 'Published versions' });
    const first = (await within(versions).findByText('Version 1')).closest('li')!;
    await act(async () => {
      fireEvent.click(within(first).getByRole('button', { name: 'Restore' }));
    });
    await act(async () => {
      fireEvent.click(within(first).getByRole('button', { name: 'Publish version 1 again' }));
    });
    expect(await screen.findByText('Version 1 is published again as version 3.')).toBeTruthy();
    expect(store.versions[2]!.content.product.priceCents).toBe(2700);
    expect(await screen.findByDisplayValue('27')).toBeTruthy();
  });

  it('says when the store cannot be loaded, and tries again', async () => {
    fakeApi({ [STORE_PATH]: { status: 503, body: { error: 'x', message: 'Database down.' } } });
    render(<StorePage />);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The store could not be loaded: Database down.',
    );
    fakeStore();
    await click('Try again');
    expect(await screen.findByDisplayValue('Soul Reset Bundle')).toBeTruthy();
  });

  it('edits, adds, reorders and removes testimonials, with an error at the new one’s field', async () => {
    const store = fakeStore();
    render(<StorePage />);
    await screen.findByDisplayValue('Soul Reset Bundle');
    const testimonial = (n: number) =>
      screen.getByText(`Testimonial ${n}`, { selector: 'legend' }).closest('fieldset')!;
    const quote = (n: number) =>
      within(testimonial(n)).getByText('Quote', { selector: 'label' }) as HTMLLabelElement;
    const quoteField = (n: number) =>
      document.getElementById(quote(n).htmlFor) as HTMLTextAreaElement;

    fireEvent.change(quoteField(2), { target: { value: 'One card brings me back.' } });
    await click('Move testimonial 2 up');
    expect(quoteField(1).value).toBe('One card brings me back.');
    await click('Add a testimonial');
    expect(quoteField(4).value).toBe('');

    await click('Save draft');
    expect(await within(testimonial(4)).findByText('The quote cannot be empty.')).toBeTruthy();
    expect(quoteField(4).getAttribute('aria-invalid')).toBe('true');
    // The section with the error is open, and says so.
    expect(
      screen.getByText('Testimonials', { selector: 'summary span span' }).closest('details')!.open,
    ).toBe(true);
    expect(store.draft.testimonials.items).toHaveLength(3);

    await click('Remove testimonial 4');
    await click('Save draft');
    expect(await screen.findByText(/Draft saved/)).toBeTruthy();
    expect(store.draft.testimonials.items.map((item) => item.name)).toEqual([
      'Amelia R.',
      'Sofia M.',
      'Nadia K.',
    ]);
    expect(store.draft.testimonials.items[0]!.quote).toBe('One card brings me back.');
  });

  it('writes the policies’ marks from their toolbar', async () => {
    const store = fakeStore();
    render(<StorePage />);
    await screen.findByDisplayValue('Soul Reset Bundle');
    const privacy = field('Privacy policy') as unknown as HTMLTextAreaElement;
    const toolbar = screen.getByRole('toolbar', { name: 'Privacy policy: formatting' });
    privacy.setSelectionRange(privacy.value.length, privacy.value.length);
    await act(async () => {
      fireEvent.click(within(toolbar).getByText('Heading'));
    });
    expect(privacy.value.endsWith('\n\n## Heading')).toBe(true);
    await click('Save draft');
    expect(await screen.findByText(/Draft saved/)).toBeTruthy();
    expect(store.draft.policies.privacy.endsWith('## Heading')).toBe(true);
  });
});
