import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StoreFileSummary, UploadedFile } from '../../../shared/store/files-api';
import { renderControlled } from '../../../../tests/support/client/controlled';
import { fakeUpload } from '../../../../tests/support/client/fake-upload';
import { FilePicker } from './file-picker';

const storedFiles: Record<string, StoreFileSummary> = {
  bundle1: { kind: 'product', name: 'Soul-Reset.pdf', size: 13_002_342 },
};

function renderPicker(initial: string | null, options: { error?: string } = {}) {
  const fake = fakeUpload();
  const { onChange, unmount } = renderControlled<string | null, [UploadedFile?]>(
    initial,
    (value, onChange) => (
      <FilePicker
        label="The bundle's file"
        kind="product"
        value={value}
        files={storedFiles}
        upload={fake.upload}
        hint="What buyers download."
        {...options}
        onChange={onChange}
      />
    ),
  );
  return { ...fake, onChange, unmount };
}

const fileInput = () => screen.getByLabelText(/Upload a new file…/);

function choose(name: string, bytes = 'x'.repeat(2048)) {
  const file = new File([bytes], name, { type: 'application/pdf' });
  fireEvent.change(fileInput(), { target: { files: [file] } });
  return file;
}

describe('FilePicker', () => {
  it('names the current file with its size, or the server’s file when none is uploaded', () => {
    renderPicker('bundle1');
    expect(screen.getByText('Soul-Reset.pdf · 12.4 MB')).toBeTruthy();
    expect(screen.getByText('Visitors get a new file only after you publish.')).toBeTruthy();
    // The hint and the publish note describe the input.
    const hint = screen.getByText('What buyers download.').parentElement!;
    expect(fileInput().getAttribute('aria-describedby')).toBe(hint.id);
  });

  it('says the server’s file is used when the content names none', () => {
    renderPicker(null);
    expect(screen.getByText('The file set on the server (BUNDLE_FILE)')).toBeTruthy();
  });

  it('uploads as its kind with progress, then passes on the new id', async () => {
    const { calls, onChange } = renderPicker(null);
    choose('Soul-Reset-v2.pdf');
    expect(calls[0]!.kind).toBe('product');
    act(() => calls[0]!.progress(0.5));
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getByText('50%')).toBeTruthy();
    act(() => calls[0]!.progress(1));
    expect(screen.getByText('Processing Soul-Reset-v2.pdf…')).toBeTruthy();
    await act(async () => calls[0]!.succeed({ id: 'bundle2' }));
    expect(onChange).toHaveBeenCalledWith(
      'bundle2',
      expect.objectContaining({ id: 'bundle2', name: 'Soul-Reset-v2.pdf' }),
    );
    // Not yet in `files`: the answer names it.
    expect(screen.getByText('Soul-Reset-v2.pdf · 2 KB')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('keeps the file and shows the server’s message when the upload is refused', async () => {
    const { calls, onChange } = renderPicker('bundle1');
    choose('empty.pdf', '');
    await act(async () => calls[0]!.refuse(400, 'The file is empty.'));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('The file is empty.');
    expect(fileInput().getAttribute('aria-describedby')).toContain(alert.id);
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByText('Soul-Reset.pdf · 12.4 MB')).toBeTruthy();
  });

  it('cancels the upload under way', async () => {
    const { calls, onChange } = renderPicker('bundle1');
    choose('big.pdf');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(calls[0]!.aborted).toBe(true);
    await act(async () => {});
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(onChange).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(fileInput());
  });

  it('stops the upload when the page is left', () => {
    const { calls, unmount } = renderPicker('bundle1');
    choose('big.pdf');
    unmount();
    expect(calls[0]!.aborted).toBe(true);
  });

  it('says so when the file the content names is not stored', () => {
    renderPicker('gone');
    expect(screen.getByText('An uploaded file no longer stored: upload it again.')).toBeTruthy();
  });

  it('shows the form’s error', () => {
    renderPicker('bundle1', { error: 'This must be a product file.' });
    expect(screen.getByRole('alert').textContent).toBe('This must be a product file.');
    expect(fileInput().getAttribute('aria-invalid')).toBe('true');
  });
});
