import { seedPolicies } from './seed-policies';
import type { StoreContent } from './store-content';

/** What the first version takes from the server's settings (PRODUCT_PRICE_CENTS and others). */
export type SeedSettings = {
  priceCents: number;
  currency: string;
  checkoutUrl: string;
};

export const seedSettingsDefaults: SeedSettings = {
  priceCents: 2700,
  currency: 'usd',
  checkoutUrl: 'https://buy.stripe.com/test_soul_reset_bundle',
};

/** The former price the site was built with ($89), struck through beside the price. */
const SEED_FORMER_PRICE_CENTS = 8900;

/** The offer as the site was built: the first published version. */
export function seedContent(settings: SeedSettings = seedSettingsDefaults): StoreContent {
  return {
    product: {
      name: 'Soul Reset Bundle',
      priceCents: settings.priceCents,
      compareAtCents:
        settings.priceCents < SEED_FORMER_PRICE_CENTS ? SEED_FORMER_PRICE_CENTS : null,
      currency: settings.currency,
      checkoutUrl: settings.checkoutUrl,
      file: null,
    },
    guide: { file: null },
    page: {
      title: 'Soul Reset Bundle – 30-Day Mindfulness & Stress-Relief Program',
      description:
        'The Soul Reset Bundle is a 30-day mindfulness and stress-relief program: journals, evening rituals, thought-healing cards and a workbook to help you feel calm again. Instant download.',
      socialImage: null,
    },
    hero: {
      title: 'Soul Reset Bundle: find your calm again in 30 days',
      text: 'A gentle 30-day mindfulness and stress-relief program for women who carry too much. Five simple daily habits, five beautiful printables, and a calmer mind you can feel within a week.',
      image: {
        file: 'builtin:bundle-mockup',
        alt: 'The Soul Reset Bundle: a journal, a card deck, quote cards and a workbook laid out on a soft sage background',
      },
      promises: ['Instant download', 'Lifetime access', 'No subscription', 'No physical shipment'],
    },
    problem: {
      eyebrow: 'Sound familiar?',
      title: 'Stress has quietly become your normal',
      text: 'Chronic stress and anxiety do not announce themselves. They settle in, one busy day at a time, until feeling tense and tired is simply how life feels.',
      items: [
        {
          title: 'Your mind never switches off',
          text: 'The same worries loop through your head from the first coffee to the last scroll.',
        },
        {
          title: 'Evenings bring no rest',
          text: 'You lie awake replaying the day, then wake up already tired.',
        },
        {
          title: 'You are always catching your breath',
          text: 'Work, family and everyone else’s needs come first, and you come last.',
        },
        {
          title: 'Advice that never sticks',
          text: 'Apps, podcasts and books promise calm, but nothing fits into a real day.',
        },
      ],
    },
    solution: {
      eyebrow: 'The solution',
      title: 'Five mindful habits, one calm 30-day reset',
      text: 'The Soul Reset Bundle turns mindfulness into five small daily habits that fit around a full life. Our 30-day promise: practise them for 30 days and you will feel calmer, sleep better and think more kindly of yourself.',
      items: [
        {
          title: 'Daily Awareness',
          text: 'Five quiet minutes each morning to notice how you feel before the day decides.',
        },
        {
          title: 'Evening Release',
          text: 'A short wind-down ritual that lets the day go so your body can rest.',
        },
        {
          title: 'Thought Reframing',
          text: 'Gentle CBT-informed prompts that turn anxious loops into kinder, truer thoughts.',
        },
        {
          title: 'Energetic Focus',
          text: 'One intention a day, drawn from a card, to point your energy where it matters.',
        },
        {
          title: 'Self-Tracking',
          text: 'A simple tracker that makes your progress visible, one calm day at a time.',
        },
      ],
      bundleTitle: 'What’s inside the bundle',
      bundleItems: [
        'Daily Presence Journal',
        'Evening Calm Ritual',
        'Thought Healing Deck (CBT-informed)',
        'Oracle-Inspired Quote Cards',
        'Ritual Tracker & Inner Peace Workbook',
      ],
      bundleNote:
        'Printable PDFs delivered as an instant download. No physical product is shipped.',
    },
    parts: [
      {
        anchor: 'daily-presence-journal',
        label: 'Morning',
        title: 'Daily Presence Journal',
        text: 'Thirty guided pages that start each day with a breath, a feeling and one intention, so you meet the day instead of bracing for it.',
        points: [
          'A 5-minute morning check-in',
          'Gratitude and intention prompts',
          'Room to write freely',
        ],
        image: {
          file: 'builtin:daily-presence-journal',
          alt: 'An open journal with a sage cover and a sprig of leaves',
        },
      },
      {
        anchor: 'evening-calm-ritual',
        label: 'Evening',
        title: 'Evening Calm Ritual',
        text: 'A gentle step-by-step wind-down of breathing, release writing and a body scan that tells your nervous system the day is done.',
        points: [
          'A 10-minute bedtime sequence',
          'Breathing patterns for sleep',
          'A release page for racing thoughts',
        ],
        image: {
          file: 'builtin:evening-calm-ritual',
          alt: 'A lit candle beside a crescent moon and a ritual card',
        },
      },
      {
        anchor: 'thought-healing-deck',
        label: 'CBT-informed',
        title: 'Thought Healing Deck',
        text: 'Printable cards that walk you through noticing an anxious thought, questioning it and choosing a kinder, more balanced one.',
        points: [
          'Prompts for common thinking traps',
          'Reframes you can carry in a pocket',
          'Grounded in CBT techniques',
        ],
        image: {
          file: 'builtin:thought-healing-deck',
          alt: 'A fanned deck of sage and sand cards with a leaf motif',
        },
      },
      {
        anchor: 'oracle-quote-cards',
        label: 'Inspiration',
        title: 'Oracle-Inspired Quote Cards',
        text: 'Draw one card a day for an affirmation and a focus that shapes your mood, your choices and your energy.',
        points: ['Daily affirmations', 'A focus word for each day', 'Beautiful enough to display'],
        image: {
          file: 'builtin:oracle-quote-cards',
          alt: 'Three quote cards with a sun, a moon and a star',
        },
      },
      {
        anchor: 'ritual-tracker',
        label: 'Progress',
        title: 'Ritual Tracker',
        text: 'A one-page habit tracker for all 30 days: tick off each ritual and watch calm become a habit you can see.',
        points: [
          'All five habits on one page',
          'A mood line to notice patterns',
          'Small wins, made visible',
        ],
        image: {
          file: 'builtin:ritual-tracker',
          alt: 'A tracker sheet with a grid of ticked circles',
        },
      },
      {
        anchor: 'inner-peace-workbook',
        label: 'Deep work',
        title: 'Inner Peace Workbook',
        text: 'Weekly reflections that help you understand your stress triggers, set boundaries and keep the calm long after the 30 days.',
        points: [
          'Four weekly reflections',
          'Boundary and trigger exercises',
          'A plan for life after day 30',
        ],
        image: {
          file: 'builtin:inner-peace-workbook',
          alt: 'A spiral workbook with a sun rising over hills on its cover',
        },
      },
    ],
    benefits: {
      eyebrow: 'Your 30-day results',
      title: 'What you can expect after 30 days',
      items: [
        'Fall asleep more easily and wake up rested',
        'Catch anxious thoughts before they spiral',
        'Start each day with focus instead of dread',
        'Feel present with the people you love',
        'Set kinder boundaries without guilt',
        'Keep a calm routine that lasts beyond day 30',
      ],
      stats: [
        { figure: '5,000+', label: 'customers' },
        { figure: '94%', label: 'success rate' },
        { figure: '7 days', label: 'to visible results' },
      ],
    },
    testimonials: {
      eyebrow: 'Kind words',
      title: 'Loved by women finding their calm',
      items: [
        {
          quote:
            'By the end of the first week I was sleeping through the night again. The evening ritual is now the part of my day I look forward to most.',
          name: 'Sofia M.',
          detail: 'Austin, Texas',
          portrait: { file: 'builtin:portrait-sofia', alt: '' },
        },
        {
          quote:
            'The Thought Healing Deck lives in my handbag. When my mind starts racing at work, one card is enough to bring me back.',
          name: 'Amelia R.',
          detail: 'Manchester, UK',
          portrait: { file: 'builtin:portrait-amelia', alt: '' },
        },
        {
          quote:
            'I have tried so many apps. This is the first thing that actually fit into my life as a mum of two. Calm, simple and beautiful.',
          name: 'Nadia K.',
          detail: 'Toronto, Canada',
          portrait: { file: 'builtin:portrait-nadia', alt: '' },
        },
      ],
      note: 'Illustrative testimonials with illustrated portraits; individual results vary.',
    },
    finalCta: {
      eyebrow: 'Limited-time offer',
      title: 'Start your 30-day reset today',
      text: 'One payment, lifetime access, no subscription. Download the whole bundle in seconds and begin tonight.',
      promises: [
        '30-day guarantee: feel the difference within 30 days of practice.',
        'Instant download: your files are ready the moment you pay.',
        'Digital product: no physical item will be shipped.',
      ],
    },
    popup: {
      title: 'Free Mindfulness Guide',
      text: 'Simple daily practices to quiet your mind and ease stress, free to download. Tell us where to reach you and get your copy now.',
      button: 'Get Your Free Guide',
      image: { file: 'builtin:free-guide-cover', alt: '' },
    },
    thankYou: {
      title: 'Thank You for Your Purchase!',
      text: 'Your 30-day reset starts whenever you are.',
    },
    receipt: {
      subject: 'Your Soul Reset Bundle: receipt and download link',
      intro: 'Thank you for your purchase! Your Soul Reset Bundle is ready to download.',
    },
    list: {
      consentLabel: 'Also send me occasional emails from {product}',
      confirmSubject: 'Please confirm your subscription',
      confirmText:
        'You asked for occasional emails from us. Please confirm with the button below. If it was not you, ignore this email and nothing happens.',
      welcomeSubject: 'Welcome! Here is your free guide again',
      welcomeText:
        'Thank you for confirming. Here is your free guide again. From time to time we will send you a practice, a story or news about the bundle, never more than a few emails a month.',
    },
    sender: { name: '', postalAddress: '' },
    policies: seedPolicies,
  };
}
