import type { StoreContent } from './store-content';

/** The policy pages as the site was built (rich text, see store-content.ts). */
export const seedPolicies: StoreContent['policies'] = {
  updatedOn: '2025-05-15',
  privacy: `## General Information

This policy explains what personal information the Soul Reset Bundle website collects, why, and what choices you have. We collect as little as we can and never sell your data.

## Collecting Personal Information

Through the forms on this site, we collect only what you choose to send us:

- the order and contact forms: your name, email address, your message and whether you intend to buy;
- the free Mindfulness Guide form: your name and email address;
- the refund inquiry and terms feedback forms: your name, email address and message.

We store each submission with the time it was sent and use it only to answer you and deliver what you asked for. Each submission is emailed to us so that we can reply.

Our own server also counts page views and a few actions: the free guide offer being shown or closed, the guide being requested, a form being sent and the checkout button being clicked. Each of these holds only what happened, when, and the page’s path (such as /privacy-policy), never anything you typed.

To count each visitor once per day without knowing who they are, the server turns a random value that changes every day, your IP address and your browser’s user agent into a one-way hash. Your IP address and user agent are never stored for these statistics, and the day’s random value is deleted when the day ends, so visits cannot be linked across days or back to a person. The individual events are deleted after two days, leaving only daily totals. We share none of this with anyone.

Payments are handled by our external checkout provider on its own secure page. We never see or store your card details.

Like any website, our server briefly keeps technical logs (such as your IP address, the page requested and the time) to keep the site secure and to limit abusive form use.

## Cookies and Targeted Advertising

This site uses no advertising cookies, no third-party trackers and no third-party analytics. Everything you see, including images and fonts, is served from our own server. Our visit statistics, described above, are counted by our own server alone: they use no cookies and store nothing in your browser that could recognise you. The site remembers in your browser, for the current visit only, whether it has already shown you the free guide offer.

Residents of U.S. states with consumer privacy laws (such as California, Colorado, Connecticut, Virginia, Utah, Texas and Oregon) have the right to opt out of the sale of personal information and of its use for targeted advertising. We do neither, and you can still tell us to opt you out at any time through our contact page.

We honour the Global Privacy Control (GPC) signal as a valid opt-out request. When your browser sends it, we treat it as your opt-out: your browser sends us no visit statistics at all, our server ignores anything that arrives with the signal, and even the in-browser analytics notes are switched off.

## Your Rights

Wherever you live, you can ask us at any time for:

- Access: a copy of the personal information we hold about you.
- Portability: that information in a common, machine-readable format.
- Correction: fixing anything that is inaccurate or incomplete.
- Erasure: deleting your information from our records.

We answer every request within 30 days and never charge for it.

## Contact

For any question about this policy or your data, please reach us through our [contact page](/contact-us).`,
  terms: `## Agreement to Terms

By using this website or buying the Soul Reset Bundle you agree to these terms. Please read them together with our [Privacy Policy](/privacy-policy), which explains how we handle your information.

## Use of Digital Products

Your purchase gives you a personal licence to use the bundle for personal, non-commercial use only.

- You may print the files for your own use as often as you like.
- You may not share, resell or redistribute the files, in whole or in part.
- All content is copyright protected and remains our property.

## Disclaimers

The bundle is for informational and self-care purposes only. It is not medical or mental-health advice and does not replace a doctor, therapist or other qualified professional. If you are struggling, please reach out to a professional or a local support line.

Purchases are covered by our [Refund Policy](/refund-policy).

## Questions & Feedback

Have a question about these terms? Send it to us and we will get back to you.`,
  refund: `> **All sales are final.** Because the Soul Reset Bundle is a digital product delivered instantly, we cannot offer refunds or exchanges once it has been purchased and downloaded.

## Digital Product Policy

Your purchase gives you immediate access to downloadable files. Digital files cannot be returned, so every sale is final: there are no refunds or exchanges once the bundle has been purchased and downloaded.

If you are unsure whether the bundle is right for you, please [contact us](/contact-us) before buying. We are happy to answer any question first.

## Our Commitment

We want you to love your bundle. If a file will not open, a download fails or something is missing, tell us and we will send you a working copy right away.

## Questions & Inquiries

Have a question about a purchase or a refund request? Send it with the form below and we will reply as soon as possible.`,
};
