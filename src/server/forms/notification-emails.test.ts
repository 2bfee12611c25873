import { describe, expect, it } from 'vitest';
import {
  contactEmail,
  freeGuideEmail,
  orderEmail,
  refundEmail,
  termsFeedbackEmail,
} from './notification-emails';

const submittedAt = new Date('2025-05-15T14:30:00Z');
const visitor = {
  name: 'Ada "A" <Lovelace>',
  email: 'ada@example.com',
  submittedAt,
  productName: 'Soul Reset Bundle',
};

describe('owner notification emails (SPEC.md §7)', () => {
  it('order: Italian body with name, email, message or none, purchase intention and date', () => {
    const withMessage = orderEmail({ ...visitor, message: 'Ciao\nGrazie', purchaseIntent: true });
    expect(withMessage.subject).toBe('[Soul Reset Bundle] NEW ORDER REQUEST');
    expect(withMessage.html).toContain('Ada &quot;A&quot; &lt;Lovelace&gt;');
    expect(withMessage.html).toContain('Ciao<br>Grazie');
    expect(withMessage.html).toContain('Sì');
    expect(withMessage.html).toContain('15 maggio 2025');
    expect(withMessage.text).toContain('Messaggio: Ciao\nGrazie');
    const without = orderEmail({ ...visitor, message: '', purchaseIntent: false });
    expect(without.html).toContain('Nessun messaggio');
    expect(without.text).toContain("Intenzione d'acquisto: No");
  });

  it('refund: the product in the title, a table, and the send date', () => {
    const mail = refundEmail({ ...visitor, message: '' });
    expect(mail.subject).toBe('[Soul Reset Bundle] NEW REFUND REQUEST');
    expect(mail.html).toMatch(/<table[^>]*>.*Name.*Email.*Message.*<\/table>/);
    expect(mail.html).toContain('No message provided');
    expect(mail.html).toContain('Sent on May 15, 2025 at 2:30 PM UTC');
  });

  it('terms feedback: brand header, table and an en-US submitted-on footer', () => {
    const mail = termsFeedbackEmail({ ...visitor, message: 'Can I share it?' });
    expect(mail.subject).toBe('[Soul Reset Bundle] NEW TERMS OF SERVICE FEEDBACK');
    expect(mail.html).toMatch(/^<!doctype html>.*<div[^>]*>Soul Reset Bundle<\/div>/);
    expect(mail.html).toContain('Submitted on May 15, 2025 at 2:30 PM UTC');
    expect(mail.text).toContain('Submitted on May 15, 2025 at 2:30 PM UTC');
  });

  it('free guide: name, email and request time', () => {
    const mail = freeGuideEmail(visitor);
    expect(mail.subject).toBe('[Soul Reset Bundle] NEW FREE GUIDE REQUEST');
    expect(mail.text).toBe(
      [
        'New free Mindfulness Guide request',
        '',
        'Name: Ada "A" <Lovelace>',
        'Email: ada@example.com',
        'Requested at: May 15, 2025 at 2:30 PM UTC',
      ].join('\n'),
    );
  });

  it('contact: name, email and message, all escaped', () => {
    const mail = contactEmail({ ...visitor, message: '<img src=x onerror=alert(1)>' });
    expect(mail.subject).toBe('[Soul Reset Bundle] NEW CONTACT MESSAGE');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
