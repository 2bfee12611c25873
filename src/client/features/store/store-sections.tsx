import type { ReactNode } from 'react';
import { currencyDigits, formatMoney } from '../../../shared/money';
import type { StorePrices } from '../../../shared/store/store-api';
import { formatDate } from '../../lib/format-date';
import { offerOf } from '../../../shared/store/offer';
import type { StoreContent } from '../../../shared/store/store-content';
import { FileField, ImageField } from './store-media-fields';
import { ListEditor, RichTextField, Section, TextField, useStoreFields } from './store-fields';
import {
  COMPARE_AT_PATH,
  contentOf,
  PRICE_PATH,
  SALE_ENDS_PATH,
  SALE_PRICE_PATH,
  SALE_STARTS_PATH,
} from './store-form';

type Part = StoreContent['parts'][number];
type Testimonial = StoreContent['testimonials']['items'][number];

/** A section address from a title: "Evening Calm Ritual" → "evening-calm-ritual". */
function anchorOf(title: string, taken: string[]): string {
  const base =
    title
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48) || 'part';
  let anchor = base;
  for (let n = 2; taken.includes(anchor); n++) anchor = `${base}-${n}`;
  return anchor;
}

/** How the page will show the prices, or nothing while they are not prices. */
function PriceLine() {
  const shown = contentOf(useStoreFields().form);
  // A price or currency not valid (yet): its field says so.
  if (!('content' in shown) || currencyDigits(shown.content.product.currency) === undefined) {
    return null;
  }
  const { product } = shown.content;
  const { price, former } = offerOf(product);
  const sale = product.sale;
  return (
    <>
      <p className="text-sm text-ink-muted">
        Shown as <strong className="text-ink">{price}</strong>
        {former && (
          <>
            {' '}
            instead of <s>{former.price}</s>: {former.percentOff}% off, save {former.savings}
          </>
        )}
        .
      </p>
      {sale && (
        <p className="text-sm text-ink-muted">
          On sale at{' '}
          <strong className="text-ink">
            {formatMoney(sale.priceCents, product.currency, { wholeWithoutCents: true })}
          </strong>{' '}
          {sale.startsAt ? `from ${formatDate(sale.startsAt, 'short')} ` : ''}
          until {formatDate(sale.endsAt, 'short')}, then {price} again.
        </p>
      )}
    </>
  );
}

const RULES_TEXT: Record<StorePrices['rules'], string> = {
  off: 'The page shows the former price as typed (PRICE_RULES=off).',
  eu: 'The page shows the lowest price of those 30 days as the former price, and no reduction without one (PRICE_RULES=eu).',
  us: 'The page shows the former price only if it was live at least 30 of the last 90 days (PRICE_RULES=us).',
};

/**
 * The saved draft's former price beside the price history: the lowest price of the 30 days
 * before its price took effect, and a warning (under every PRICE_RULES) when the struck-through
 * price was not really charged, or not long enough.
 */
function PriceHistoryNote({ prices, currency }: { prices: StorePrices; currency: string }) {
  const { draft } = prices;
  const since = new Date(draft.since).toLocaleDateString(undefined, { dateStyle: 'medium' });
  return (
    <div className="space-y-2 text-sm" data-testid="price-history">
      <p className="text-ink-muted">
        Lowest price in the 30 days before the saved price took effect ({since}):{' '}
        <strong className="text-ink">
          {draft.lowest30Cents === null
            ? 'none (no price was live then)'
            : formatMoney(draft.lowest30Cents, currency)}
        </strong>
        . {RULES_TEXT[prices.rules]}
      </p>
      {draft.warnings.length > 0 && (
        <div role="status" className="rounded-lg bg-amber-50 px-3 py-2 text-amber-900">
          <p className="font-semibold">The former price may not be honest:</p>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {draft.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function TextList({
  path,
  legend,
  itemName,
  min,
  max,
}: {
  path: string;
  legend: string;
  itemName: string;
  min?: number;
  max: number;
}) {
  return (
    <ListEditor<string>
      path={path}
      legend={legend}
      itemName={itemName}
      newItem={() => ''}
      min={min}
      max={max}
      inline
    >
      {(itemPath, index) => <TextField path={itemPath} label={`${itemName} ${index + 1}`} />}
    </ListEditor>
  );
}

function Cards({ path, legend, itemName }: { path: string; legend: string; itemName: string }) {
  return (
    <ListEditor<{ title: string; text: string }>
      path={path}
      legend={legend}
      itemName={itemName}
      newItem={() => ({ title: '', text: '' })}
      min={1}
      max={8}
    >
      {(itemPath) => (
        <>
          <TextField path={`${itemPath}.title`} label="Title" />
          <TextField path={`${itemPath}.text`} label="Text" rows={2} />
        </>
      )}
    </ListEditor>
  );
}

function Heading({ section }: { section: string }) {
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <TextField path={`${section}.eyebrow`} label="Small label" />
      <TextField path={`${section}.title`} label="Heading" />
    </div>
  );
}

/** The Store page's form, a section per part of the site, in the order visitors meet them. */
export function StoreSections({ prices }: { prices?: StorePrices }): ReactNode {
  const { parts, product } = useStoreFields().form.content;
  return (
    <>
      <Section
        title="Product and price"
        text="What visitors buy, what they pay, and the file they download."
        paths={['product']}
        open
      >
        <TextField path="product.name" label="Product name" />
        <div className="grid gap-5 sm:grid-cols-3">
          <TextField path={PRICE_PATH} label="Price" inputMode="decimal" />
          <TextField path={COMPARE_AT_PATH} label="Former price (optional)" inputMode="decimal" />
          <TextField path="product.currency" label="Currency" hint="Such as usd or eur." />
        </div>
        <PriceLine />
        <div className="grid gap-5 sm:grid-cols-3">
          <TextField
            path={SALE_PRICE_PATH}
            label="Sale price (optional)"
            inputMode="decimal"
            hint="Charged from the start until the end; then the price above again."
          />
          <TextField
            path={SALE_STARTS_PATH}
            label="Sale starts"
            type="datetime-local"
            hint="Empty: at once."
          />
          <TextField
            path={SALE_ENDS_PATH}
            label="Sale ends"
            type="datetime-local"
            hint="Your time zone."
          />
        </div>
        {prices && <PriceHistoryNote prices={prices} currency={product.currency} />}
        <TextField
          path="product.checkoutUrl"
          label="Checkout link"
          type="url"
          inputMode="url"
          hint="The Stripe Payment Link the buy buttons open."
        />
        <FileField path="product.file" kind="product" label="Product file" />
      </Section>

      <Section
        title="Top of the page"
        text="The first thing every visitor reads."
        paths={['hero']}
        open
      >
        <TextField path="hero.title" label="Headline" />
        <TextField path="hero.text" label="Introduction" rows={4} />
        <ImageField path="hero.image" label="Image" />
        <TextList
          path="hero.promises"
          legend="Promises under the button"
          itemName="Promise"
          max={6}
        />
      </Section>

      <Section
        title="The problem"
        text="The struggles your visitors recognise."
        paths={['problem']}
      >
        <Heading section="problem" />
        <TextField path="problem.text" label="Introduction" rows={3} />
        <Cards path="problem.items" legend="Struggles" itemName="Struggle" />
      </Section>

      <Section
        title="The solution"
        text="The habits the bundle builds, and what is inside it."
        paths={['solution']}
      >
        <Heading section="solution" />
        <TextField path="solution.text" label="Introduction" rows={3} />
        <Cards path="solution.items" legend="Habits" itemName="Habit" />
        <TextField path="solution.bundleTitle" label="Bundle list heading" />
        <TextList
          path="solution.bundleItems"
          legend="What’s inside the bundle"
          itemName="Bundle item"
          min={1}
          max={12}
        />
        <TextField path="solution.bundleNote" label="Note under the list" />
      </Section>

      <Section
        title="Bundle parts"
        text="A section of its own for each part of the bundle, with its picture."
        paths={['parts']}
      >
        <ListEditor<Part>
          path="parts"
          legend="Parts"
          itemName="Part"
          max={12}
          newItem={() => ({
            anchor: anchorOf(
              'new part',
              parts.map((part) => part.anchor),
            ),
            label: '',
            title: '',
            text: '',
            points: [],
            image: { file: 'builtin:bundle-mockup', alt: '' },
          })}
        >
          {(itemPath, _index, part) => (
            <>
              <div className="grid gap-5 sm:grid-cols-2">
                <TextField path={`${itemPath}.label`} label="Small label" />
                <TextField path={`${itemPath}.title`} label="Title" />
              </div>
              <TextField path={`${itemPath}.text`} label="Text" rows={3} />
              <TextList path={`${itemPath}.points`} legend="Points" itemName="Point" max={8} />
              <ImageField path={`${itemPath}.image`} label="Picture" />
              <TextField
                path={`${itemPath}.anchor`}
                label="Section address"
                hint={`Links to this part end in #${part.anchor}.`}
              />
            </>
          )}
        </ListEditor>
      </Section>

      <Section
        title="Results"
        text="What buyers can expect, and the figures that prove it."
        paths={['benefits']}
      >
        <Heading section="benefits" />
        <TextList path="benefits.items" legend="Results" itemName="Result" min={1} max={12} />
        <ListEditor<{ figure: string; label: string }>
          path="benefits.stats"
          legend="Figures"
          itemName="Figure"
          max={4}
          newItem={() => ({ figure: '', label: '' })}
        >
          {(itemPath) => (
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField path={`${itemPath}.figure`} label="Figure" hint="Such as 5,000+." />
              <TextField path={`${itemPath}.label`} label="Says" hint="Such as customers." />
            </div>
          )}
        </ListEditor>
      </Section>

      <Section
        title="Testimonials"
        text="Kind words from buyers, in the order they appear."
        paths={['testimonials']}
      >
        <Heading section="testimonials" />
        <ListEditor<Testimonial>
          path="testimonials.items"
          legend="Testimonials"
          itemName="Testimonial"
          max={12}
          newItem={() => ({ quote: '', name: '', detail: '', portrait: null })}
        >
          {(itemPath) => (
            <>
              <TextField path={`${itemPath}.quote`} label="Quote" rows={3} />
              <div className="grid gap-5 sm:grid-cols-2">
                <TextField path={`${itemPath}.name`} label="Name" />
                <TextField path={`${itemPath}.detail`} label="Place (optional)" />
              </div>
              <ImageField path={`${itemPath}.portrait`} label="Portrait" optional />
            </>
          )}
        </ListEditor>
        <TextField path="testimonials.note" label="Note under the testimonials (optional)" />
      </Section>

      <Section
        title="Closing offer"
        text="The last call to buy, above the order form."
        paths={['finalCta']}
      >
        <Heading section="finalCta" />
        <TextField path="finalCta.text" label="Text" rows={3} />
        <TextList path="finalCta.promises" legend="Promises" itemName="Promise" max={6} />
      </Section>

      <Section
        title="Free guide popup"
        text="The offer of the free guide, shown once a visit."
        paths={['popup', 'guide']}
      >
        <TextField path="popup.title" label="Popup title" />
        <TextField path="popup.text" label="Popup text" rows={3} />
        <TextField path="popup.button" label="Popup button" />
        <ImageField path="popup.image" label="Popup picture" />
        <FileField path="guide.file" kind="guide" label="Guide file" />
      </Section>

      <Section
        title="Mailing list"
        text="The popup's consent box and the emails that confirm and welcome a subscriber. Each published wording is kept, and a subscriber's consent names the one shown."
        paths={['list']}
      >
        <TextField
          path="list.consentLabel"
          label="Consent box label"
          hint="{product} is replaced by the product name. The box is never ticked for the visitor."
        />
        <TextField path="list.confirmSubject" label="Confirmation email subject" />
        <TextField
          path="list.confirmText"
          label="Confirmation email text"
          hint="The confirm button follows it."
          rows={3}
        />
        <TextField path="list.welcomeSubject" label="Welcome email subject" />
        <TextField
          path="list.welcomeText"
          label="Welcome email text"
          hint="The free guide's download button and the unsubscribe link follow it."
          rows={4}
        />
      </Section>

      <Section
        id="sender"
        title="Sender"
        text="Who sends the list's emails: your name and postal address, at the foot of every broadcast and follow-up email."
        paths={['sender']}
      >
        <TextField
          path="sender.name"
          label="Sender name"
          hint="You or your business, as subscribers know you."
        />
        <TextField
          path="sender.postalAddress"
          label="Postal address"
          hint="A real address where you receive mail (the law asks for one in every marketing email). No broadcast or follow-up email is sent until both fields are published."
          rows={3}
        />
      </Section>

      <Section
        title="After the purchase"
        text="The thank-you page and the receipt email every buyer gets."
        paths={['thankYou', 'receipt']}
      >
        <TextField path="thankYou.title" label="Thank-you headline" />
        <TextField
          path="thankYou.text"
          label="Thank-you text"
          hint="Shown after “Your product is ready.”"
          rows={3}
        />
        <TextField path="receipt.subject" label="Receipt subject" />
        <TextField
          path="receipt.intro"
          label="Receipt opening"
          hint="The download button, link terms and amount paid follow it."
          rows={3}
        />
      </Section>

      <Section
        title="Policies"
        text="The privacy policy, terms of service and refund policy."
        paths={['policies']}
      >
        <TextField path="policies.updatedOn" label="Last updated" type="date" />
        <RichTextField path="policies.privacy" label="Privacy policy" />
        <RichTextField path="policies.terms" label="Terms of service" />
        <RichTextField path="policies.refund" label="Refund policy" />
      </Section>

      <Section
        title="Search and sharing"
        text="How the page appears in search results and when its link is shared."
        paths={['page']}
      >
        <TextField path="page.title" label="Page title" />
        <TextField path="page.description" label="Page description" rows={3} />
        <ImageField path="page.socialImage" label="Sharing image" optional />
      </Section>
    </>
  );
}
