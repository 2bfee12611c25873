// Writes the two downloads the site links to by default (DOWNLOAD_URL, GUIDE_URL) into
// src/client/public/downloads: small one-page PDFs, written by hand so no PDF library is
// needed. Run it again after changing the text below.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const outDir = fileURLToPath(new URL('../src/client/public/downloads', import.meta.url));

const documents = {
  'soul-reset-bundle-sample.pdf': {
    title: 'Soul Reset Bundle',
    subtitle: 'Your 30-day mindfulness and stress-relief program',
    lines: [
      'Welcome. Inside this bundle you will find:',
      '  1. Daily Presence Journal',
      '  2. Evening Calm Ritual',
      '  3. Thought Healing Deck (CBT-informed)',
      '  4. Oracle-Inspired Quote Cards',
      '  5. Ritual Tracker & Inner Peace Workbook',
      '',
      'Day 1, Daily Awareness: sit comfortably, take three slow breaths,',
      'and write one sentence about how you feel right now. No judgement,',
      'just noticing. That is your whole practice for this morning.',
      '',
      'Tonight, Evening Release: write down what you are carrying from the',
      'day, then close the page. The day is done; you can let it rest here.',
    ],
  },
  'free-mindfulness-guide.pdf': {
    title: 'Free Mindfulness Guide',
    subtitle: 'Five minutes of calm, whenever you need it',
    lines: [
      '1. Arrive. Sit or stand comfortably and let your shoulders drop.',
      '2. Breathe. In for four counts, hold for four, out for six. Repeat five times.',
      '3. Notice. Name five things you can see and three things you can hear.',
      '4. Soften. Unclench your jaw, your hands and your belly.',
      '5. Choose. Pick one kind intention for the next hour.',
      '',
      'Practise it once a day for a week and notice what changes.',
      'From the makers of the Soul Reset Bundle.',
    ],
  },
};

/** Escapes text for a PDF literal string. */
const pdfString = (text) => `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;

function makePdf({ title, subtitle, lines }) {
  const content = [
    'BT',
    '/F2 26 Tf 0.153 0.271 0.184 rg 72 740 Td',
    `${pdfString(title)} Tj`,
    '/F1 13 Tf 0.29 0.337 0.314 rg 0 -26 Td',
    `${pdfString(subtitle)} Tj`,
    '/F1 12 Tf 0.122 0.165 0.141 rg 0 -44 Td 18 TL',
    ...lines.map((line) => `${pdfString(line)} '`),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' +
      '/Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>',
    `<< /Title ${pdfString(title)} /Producer (Soul Reset site) >>`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, index) => {
    const offset = Buffer.byteLength(pdf, 'latin1');
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\n`;
  pdf += `startxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

await mkdir(outDir, { recursive: true });
for (const [name, doc] of Object.entries(documents)) {
  await writeFile(path.join(outDir, name), makePdf(doc));
  console.log(`Wrote ${path.join(outDir, name)}`);
}
