import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  tableConfigSchema,
  type TableConfig,
  type TableRow,
} from '../../../shared/admin/table-config';
import formSubmissions from '../../../shared/table-configurations/form-submissions.json';
import { fakeTableServer, sampleRows } from '../../../../tests/support/client/fake-tables';
import { tableApi } from './table-api-client';
import { TablePanel } from './table-panel';

const config = tableConfigSchema.parse(formSubmissions);
const TABLE = config.db_table_name;

// The admin's zone is not UTC here: the form shows local time and saves UTC.
const previousZone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Europe/Berlin';
});
afterAll(() => {
  if (previousZone === undefined) delete process.env.TZ;
  else process.env.TZ = previousZone;
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function renderPanel(rows: TableRow[], tableConfig: TableConfig = config) {
  const server = fakeTableServer({ [tableConfig.db_table_name]: rows });
  render(
    <>
      <TablePanel config={tableConfig} api={tableApi} />
    </>,
  );
  await screen.findByRole('table');
  return server;
}

/** Opens the form and waits until its rich-text editor (a lazy chunk) is ready. */
async function open(button: string, name: string) {
  const opener = screen.getByRole('button', { name: button });
  opener.focus();
  fireEvent.click(opener);
  const dialog = await screen.findByRole('dialog', { name });
  if (config.field_list.some((field) => field.type === 'rich_text')) {
    // The first open loads Quill's chunk, which takes a while in a cold test worker.
    await within(dialog).findByRole('textbox', { name: 'Notes' }, { timeout: 5000 });
  }
  return { dialog, opener };
}

/** The input labelled `label`, with or without the required mark. */
const input = (label: string) =>
  screen.getByLabelText(new RegExp(`^${label}\\*?$`)) as HTMLInputElement;
const nonGetCalls = (server: ReturnType<typeof fakeTableServer>) =>
  server.calls.filter((call) => call.method !== 'GET');

describe('row form modal (SPEC.md §2 "Form modal", §4, §5)', () => {
  it('adds a row: blank inputs by type, red asterisks, Saving..., then closes and refetches', async () => {
    const server = await renderPanel(sampleRows(2));
    const { dialog, opener } = await open('Add New', 'Add New Form Submissions');

    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(dialog.querySelector('.max-h-\\[60vh\\].overflow-y-auto')).not.toBeNull();
    expect(dialog.className).toContain('max-w-2xl');

    // One input per editable field: no ID, Created At or Updated At.
    const labels = Array.from(dialog.querySelectorAll('label, span[id$="-label"]'), (label) =>
      label.textContent?.trim(),
    );
    expect(labels).toEqual([
      'Name*',
      'Email*',
      'Message',
      'Purchase Intent',
      'Email Sent',
      'Email Sent At',
      'Notes',
    ]);
    for (const label of dialog.querySelectorAll('label')) {
      const mark = label.querySelector('span[aria-hidden="true"]');
      expect(mark?.textContent ?? '', label.textContent!).toBe(
        ['Name*', 'Email*'].includes(label.textContent!) ? '*' : '',
      );
      if (mark) expect(mark.className).toContain('text-red-600');
    }
    expect(input('Name').type).toBe('text');
    expect(input('Name').value).toBe('');
    expect(input('Name').getAttribute('aria-required')).toBe('true');
    expect(input('Message').tagName).toBe('TEXTAREA');
    expect(input('Message').getAttribute('rows')).toBe('4');
    expect(input('Purchase Intent').type).toBe('checkbox');
    expect(input('Purchase Intent').checked).toBe(false);
    expect(input('Email Sent At').type).toBe('datetime-local');
    expect(input('Email Sent At').value).toBe('');
    expect(within(dialog).getByRole('textbox', { name: 'Notes' }).textContent).toBe('');

    fireEvent.change(input('Name'), { target: { value: 'Nadia' } });
    fireEvent.change(input('Email'), { target: { value: 'nadia@example.com' } });
    fireEvent.click(input('Purchase Intent'));
    fireEvent.change(input('Email Sent At'), { target: { value: '2025-03-30T03:15' } });

    const release = server.hold();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const saving = await within(dialog).findByRole('button', { name: 'Saving...' });
    expect(saving).toHaveProperty('disabled', true);
    expect(saving.querySelector('svg.animate-spin')).not.toBeNull();
    release();

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(nonGetCalls(server)).toEqual([
      {
        method: 'POST',
        table: TABLE,
        id: undefined,
        page: undefined,
        body: {
          name: 'Nadia',
          email: 'nadia@example.com',
          message: null,
          purchase_intent: true,
          email_sent: false,
          // 03:15 CEST, just after the clocks went forward.
          email_sent_at: '2025-03-30T01:15:00.000Z',
          notes: null,
        },
      },
    ]);
    await waitFor(() => expect(server.calls.at(-1)).toMatchObject({ method: 'GET', page: 0 }));
    expect(await screen.findByRole('button', { name: 'Edit row 3' })).toBeDefined();
    expect(document.activeElement).toBe(opener);
  });

  it('shows the first page after adding, where the newest row is', async () => {
    await renderPanel(sampleRows(12));
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('Page 2 of 2 (12 items)');
    const { dialog } = await open('Add New', 'Add New Form Submissions');
    fireEvent.change(input('Name'), { target: { value: 'Amelia' } });
    fireEvent.change(input('Email'), { target: { value: 'amelia@example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Page 1 of 2 (13 items)')).toBeDefined();
    expect(screen.getByText('Amelia')).toBeDefined();
  });

  it("edits a row: the row's values, local time, PUT of editable fields, refetch", async () => {
    const rows = sampleRows(3);
    rows[1] = {
      ...rows[1]!,
      name: 'Sofia',
      purchase_intent: true,
      email_sent_at: '2025-10-26T00:30:00.000Z',
      notes: '<p>Asked about <em>refunds</em></p>',
    };
    const server = await renderPanel(rows);
    const { dialog } = await open('Edit row 2', 'Edit Form Submissions');

    expect(input('Name').value).toBe('Sofia');
    expect(input('Email').value).toBe('visitor2@example.com');
    expect(input('Message').value).toBe('Message 2');
    expect(input('Purchase Intent').checked).toBe(true);
    expect(input('Email Sent').checked).toBe(true);
    // 00:30 UTC is 02:30 CEST, half an hour before the clocks go back.
    expect(input('Email Sent At').value).toBe('2025-10-26T02:30');
    expect(within(dialog).getByRole('textbox', { name: 'Notes' }).innerHTML).toBe(
      '<p>Asked about <em>refunds</em></p>',
    );

    fireEvent.change(input('Name'), { target: { value: 'Sofia R.' } });
    fireEvent.click(input('Email Sent'));
    fireEvent.change(input('Email Sent At'), { target: { value: '2025-10-27T09:05' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(nonGetCalls(server)).toEqual([
      {
        method: 'PUT',
        table: TABLE,
        id: 2,
        page: undefined,
        body: {
          name: 'Sofia R.',
          email: 'visitor2@example.com',
          message: 'Message 2',
          purchase_intent: true,
          email_sent: false,
          email_sent_at: '2025-10-27T08:05:00.000Z',
          notes: '<p>Asked about <em>refunds</em></p>',
        },
      },
    ]);
    await waitFor(() => expect(server.calls.at(-1)?.method).toBe('GET'));
    expect(await screen.findByText('Sofia R.')).toBeDefined();
  });

  it("keeps the form open with the server's message inline in red when a save fails", async () => {
    const server = await renderPanel(sampleRows(1));
    const { dialog } = await open('Edit row 1', 'Edit Form Submissions');
    server.failNext('PUT', { status: 400, message: 'Field "Email" must be an address.' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    const alert = await within(dialog).findByRole('alert');
    await waitFor(() => expect(alert.textContent).toBe('Field "Email" must be an address.'));
    expect(alert.className).toContain('text-red-700');
    expect(screen.getByRole('dialog', { name: 'Edit Form Submissions' })).toBe(dialog);
    expect(within(dialog).getByRole('button', { name: 'Save' })).toHaveProperty('disabled', false);
    expect(server.calls.filter((call) => call.method === 'GET')).toHaveLength(1);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('names the first required field left empty without asking the server', async () => {
    const server = await renderPanel(sampleRows(1));
    const { dialog } = await open('Add New', 'Add New Form Submissions');
    fireEvent.change(input('Email'), { target: { value: 'a@example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Field "Name" is required.');
    expect(document.activeElement).toBe(input('Name'));

    fireEvent.change(input('Name'), { target: { value: 'Ada' } });
    fireEvent.change(input('Email'), { target: { value: '  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Field "Email" is required.');
    expect(nonGetCalls(server)).toEqual([]);
    expect(screen.getByRole('dialog')).toBe(dialog);
  });

  it.each([
    ['Cancel', () => fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))],
    ['the X button', () => fireEvent.click(screen.getByRole('button', { name: 'Close' }))],
    ['Escape', () => fireEvent.keyDown(document, { key: 'Escape' })],
  ])('closes on %s without saving, focus back on the opener', async (_how, close) => {
    const server = await renderPanel(sampleRows(1));
    const { opener } = await open('Edit row 1', 'Edit Form Submissions');
    fireEvent.change(input('Name'), { target: { value: 'Changed' } });
    close();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    expect(nonGetCalls(server)).toEqual([]);
    expect(screen.getByText('Visitor 1')).toBeDefined();
  });

  it('keeps Tab inside the dialog', async () => {
    await renderPanel(sampleRows(1));
    const { dialog } = await open('Add New', 'Add New Form Submissions');
    expect(document.activeElement).toBe(dialog);
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Save' }));
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Close' }));
  });

  it('starts blank again after an edit, and from the new row on the next edit', async () => {
    await renderPanel(sampleRows(2));
    await open('Edit row 2', 'Edit Form Submissions');
    expect(input('Name').value).toBe('Visitor 2');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await open('Add New', 'Add New Form Submissions');
    expect(input('Name').value).toBe('');
    expect(input('Email Sent').checked).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await open('Edit row 1', 'Edit Form Submissions');
    expect(input('Name').value).toBe('Visitor 1');
  });

  it('uses a numeric input for numbers and a textarea for message/description fields', async () => {
    const custom = tableConfigSchema.parse({
      db_table_name: 'products',
      ui_table_name: 'Products',
      field_list: [
        { db_name: 'id', ui_name: 'ID', type: 'id', required: false },
        { db_name: 'price', ui_name: 'Price', type: 'number', required: true },
        { db_name: 'stock', ui_name: 'Stock', type: 'number', required: false },
        { db_name: 'long_description', ui_name: 'Description', type: 'text', required: false },
        { db_name: 'homepage', ui_name: 'Homepage', type: 'web_url', required: false },
        { db_name: 'shelf', ui_name: 'Shelf', type: 'mystery', required: false },
      ],
    });
    const server = await renderPanel([], custom);
    fireEvent.click(screen.getByRole('button', { name: 'Add New' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Products' });

    expect(input('Price').type).toBe('number');
    expect(input('Description').tagName).toBe('TEXTAREA');
    expect(input('Homepage').type).toBe('text');
    expect(input('Shelf').type).toBe('text');

    fireEvent.change(input('Price'), { target: { value: '27.5' } });
    fireEvent.change(input('Homepage'), { target: { value: 'https://example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(nonGetCalls(server)[0]?.body).toEqual({
      price: 27.5,
      stock: null,
      long_description: null,
      homepage: 'https://example.com',
      shelf: null,
    });
  });
});
