import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backupPath } from '../../../shared/admin/backup-api';
import { RequestError } from '../../lib/api-client';
import { fakeApi } from '../../../../tests/support/client/fake-api';
import { BackupPage } from './backup-page';
import {
  backupMessages,
  downloadBackup,
  fileNameFrom,
} from '../../features/backup/download-backup';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('Backup page', () => {
  it('offers the download and says what the file holds and how to restore it', () => {
    render(<BackupPage download={() => new Promise(() => {})} />);
    expect(screen.getByRole('heading', { name: 'Backup' })).toBeTruthy();
    const button = screen.getByRole('button', { name: 'Download backup' });
    expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByText(/every table: the visitors’|every table: the visitors'/)).toBeTruthy();
    expect(screen.getByText('npm run db:restore -- --in FILE')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the work in progress, then the saved file name', async () => {
    const download = deferred<string>();
    render(<BackupPage download={() => download.promise} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download backup' }));
    const busy = screen.getByRole('button', { name: 'Preparing backup…' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect(busy.querySelector('svg.animate-spin')).not.toBeNull();
    expect(screen.getByText(/Taking a snapshot of every table/)).toBeTruthy();

    download.resolve('soul-reset-backup-2026-11-24T18-00-00Z.jsonl.gz');
    expect(
      await screen.findByText(
        'Saved soul-reset-backup-2026-11-24T18-00-00Z.jsonl.gz to your downloads.',
      ),
    ).toBeTruthy();
    expect(
      (screen.getByRole('button', { name: 'Download backup' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it('shows the server’s message when the backup fails, and can try again', async () => {
    const download = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new RequestError(503, 'The service is temporarily unavailable.'))
      .mockResolvedValueOnce('again.jsonl.gz');
    render(<BackupPage download={download} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download backup' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The service is temporarily unavailable.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Download backup' }));
    expect(await screen.findByText('Saved again.jsonl.gz to your downloads.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('downloadBackup', () => {
  it('fetches the backup and saves it under the name the server gave', async () => {
    const fetchMock = fakeApi({
      [backupPath]: () =>
        new Response(new Uint8Array([31, 139, 8]), {
          status: 200,
          headers: {
            'content-type': 'application/gzip',
            'content-disposition':
              'attachment; filename="soul-reset-backup-2026-11-24T18-00-00Z.jsonl.gz"',
          },
        }),
    }).fetch;
    const createObjectURL = vi.fn(() => 'blob:backup');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });

    expect(await downloadBackup()).toBe('soul-reset-backup-2026-11-24T18-00-00Z.jsonl.gz');
    expect(fetchMock).toHaveBeenCalledWith(backupPath, { credentials: 'same-origin' });
    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.download).toBe('soul-reset-backup-2026-11-24T18-00-00Z.jsonl.gz');
    expect(clicked[0]!.href).toBe('blob:backup');
    expect(document.body.contains(clicked[0]!)).toBe(false);
  });

  it('rejects with the server’s message, or a general one when it cannot be reached', async () => {
    fakeApi({
      [backupPath]: {
        status: 401,
        body: { error: 'Unauthorized', message: 'Sign in to continue.' },
      },
    });
    await expect(downloadBackup()).rejects.toMatchObject({
      status: 401,
      message: 'Sign in to continue.',
    });
    fakeApi({ [backupPath]: () => new Response('oops', { status: 500 }) });
    await expect(downloadBackup()).rejects.toMatchObject({
      status: 500,
      message: backupMessages.failed,
    });
    fakeApi({ [backupPath]: 'network-error' });
    await expect(downloadBackup()).rejects.toMatchObject({
      status: 0,
      message: backupMessages.unreachable,
    });
  });

  it('takes only a plain file name from the header', () => {
    expect(fileNameFrom('attachment; filename="a-b_c.jsonl.gz"')).toBe('a-b_c.jsonl.gz');
    expect(fileNameFrom('attachment; filename="../../etc/passwd"')).toBe(
      'soul-reset-backup.jsonl.gz',
    );
    expect(fileNameFrom(null)).toBe('soul-reset-backup.jsonl.gz');
  });
});
