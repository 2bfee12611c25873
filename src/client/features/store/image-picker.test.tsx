import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StoreFileSummary, UploadedFile } from '../../../shared/store/files-api';
import type { StoreImage } from '../../../shared/store/store-content';
import { renderControlled } from '../../../../tests/support/client/controlled';
import { fakeUpload } from '../../../../tests/support/client/fake-upload';
import { builtInImages } from '../../images/built-in-images';
import { ImagePicker } from './image-picker';

const variants = (hash: string) =>
  [480, 960].flatMap((width) =>
    (['avif', 'webp', 'jpeg'] as const).map((format) => ({
      url: `/media/${hash}-${width}.${format === 'jpeg' ? 'jpg' : format}`,
      width,
      height: width / 2,
      format,
      type: `image/${format}`,
    })),
  );

const storedFiles: Record<string, StoreFileSummary> = {
  photo1: {
    kind: 'image',
    name: 'hero.jpg',
    size: 200_000,
    image: { width: 1440, height: 720, variants: variants('aaaaaaaaaaaaaaaa').reverse() },
  },
};

/** The picker as the page holds it: the value in state, every change also reported. */
function renderPicker(
  initial: StoreImage | null,
  options: { optional?: boolean; error?: string } = {},
  lateAnswers = false,
) {
  const fake = fakeUpload({ lateAnswers });
  const { onChange } = renderControlled<StoreImage | null, [UploadedFile?]>(
    initial,
    (value, onChange) => (
      <ImagePicker
        label="Hero image"
        value={value}
        files={storedFiles}
        upload={fake.upload}
        {...options}
        onChange={onChange}
      />
    ),
  );
  return { ...fake, onChange };
}

function choose(name = 'new.png') {
  const file = new File(['png bytes'], name, { type: 'image/png' });
  fireEvent.change(screen.getByLabelText(/Replace image|Choose image…/), {
    target: { files: [file] },
  });
  return file;
}

const thumbnail = () => screen.getByRole('group', { name: 'Hero image' }).querySelector('img');

describe('ImagePicker', () => {
  it('shows a built-in image and an uploaded one by its narrowest JPEG', () => {
    renderPicker({ file: 'builtin:bundle-mockup', alt: 'The bundle' });
    expect(thumbnail()?.getAttribute('src')).toBe(builtInImages['bundle-mockup']!.src);
    expect(screen.getByText('An image the site was built with')).toBeTruthy();
    expect(screen.getByLabelText(/Replace image/).getAttribute('accept')).toBe(
      'image/jpeg,image/png,image/webp,image/avif,image/gif',
    );
  });

  it('shows an uploaded image by its narrowest JPEG and its file name', () => {
    renderPicker({ file: 'photo1', alt: '' });
    expect(thumbnail()?.getAttribute('src')).toBe('/media/aaaaaaaaaaaaaaaa-480.jpg');
    expect(screen.getByText('hero.jpg')).toBeTruthy();
  });

  it('says so when the image the content names is not stored', () => {
    renderPicker({ file: 'gone', alt: '' });
    expect(thumbnail()).toBeNull();
    expect(screen.getByText('This image is no longer stored: choose another one.')).toBeTruthy();
  });

  it('shows the progress, keeps the old image meanwhile, then passes the upload on', async () => {
    const { calls, onChange } = renderPicker({ file: 'builtin:bundle-mockup', alt: 'The bundle' });
    const file = choose();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.kind).toBe('image');
    expect(calls[0]!.file).toBe(file);

    act(() => calls[0]!.progress(0.42));
    const bar = screen.getByRole('progressbar', { name: 'Uploading new.png' });
    expect(bar.getAttribute('aria-valuenow')).toBe('42');
    expect(screen.getByText('42%')).toBeTruthy();
    // The end-to-end tests wait on this.
    expect(screen.getByRole('group', { name: 'Hero image' }).dataset.upload).toBe('uploading');
    expect(thumbnail()?.getAttribute('src')).toBe(builtInImages['bundle-mockup']!.src);
    expect(onChange).not.toHaveBeenCalled();

    // The description typed meanwhile goes with the new image.
    fireEvent.change(screen.getByLabelText('Description for screen readers'), {
      target: { value: 'Our new bundle' },
    });
    await act(async () =>
      calls[0]!.succeed({
        id: 'photo2',
        width: 960,
        height: 480,
        variants: variants('bbbbbbbbbbbbbbbb'),
      }),
    );
    expect(onChange).toHaveBeenLastCalledWith(
      { file: 'photo2', alt: 'Our new bundle' },
      expect.objectContaining({ id: 'photo2', name: 'new.png' }),
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('group', { name: 'Hero image' }).dataset.upload).toBe('idle');
    // Not yet in `files`: the answer's own variants show it.
    expect(thumbnail()?.getAttribute('src')).toBe('/media/bbbbbbbbbbbbbbbb-480.jpg');
  });

  it('shows the server’s message and keeps the image when an upload is refused', async () => {
    const { calls, onChange } = renderPicker({ file: 'photo1', alt: 'A field' });
    choose('huge.png');
    await act(async () => calls[0]!.refuse(413, 'The image is too large: the limit is 10 MB.'));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('The image is too large: the limit is 10 MB.');
    expect(screen.getByRole('group', { name: 'Hero image' }).dataset.upload).toBe('failed');
    expect(screen.getByLabelText(/Replace image/).getAttribute('aria-describedby')).toBe(alert.id);
    expect(onChange).not.toHaveBeenCalled();
    expect(thumbnail()?.getAttribute('src')).toBe('/media/aaaaaaaaaaaaaaaa-480.jpg');

    // Another try clears the message.
    choose('small.png');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('cancels: the upload is aborted, the image stays and focus returns to the button', async () => {
    const { calls, onChange } = renderPicker({ file: 'photo1', alt: '' });
    choose();
    act(() => calls[0]!.progress(0.1));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(calls[0]!.aborted).toBe(true);
    await act(async () => {});
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(onChange).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(screen.getByLabelText(/Replace image/));
  });

  it('a second file replaces the upload under way, whose answer is then ignored', async () => {
    const { calls, onChange } = renderPicker(null);
    choose('first.png');
    choose('second.png');
    expect(calls[0]!.aborted).toBe(true);
    await act(async () => calls[1]!.succeed({ id: 'second' }));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenLastCalledWith({ file: 'second', alt: '' }, expect.anything());
  });

  it('ignores an answer that arrives after Cancel', async () => {
    const { calls, onChange } = renderPicker({ file: 'photo1', alt: '' }, {}, true);
    choose();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await act(async () => calls[0]!.succeed({ id: 'late' }));
    await act(async () => {});
    expect(onChange).not.toHaveBeenCalled();
    expect(thumbnail()?.getAttribute('src')).toBe('/media/aaaaaaaaaaaaaaaa-480.jpg');
  });

  it('edits the description for screen readers', () => {
    const { onChange } = renderPicker({ file: 'photo1', alt: '' });
    const alt = screen.getByLabelText('Description for screen readers');
    expect(alt.getAttribute('aria-describedby')).toBe(
      screen.getByText('Leave empty if the image is decorative.').id,
    );
    fireEvent.change(alt, { target: { value: 'A quiet morning' } });
    expect(onChange).toHaveBeenLastCalledWith({ file: 'photo1', alt: 'A quiet morning' });
    expect((alt as HTMLInputElement).value).toBe('A quiet morning');
  });

  it('removes an optional image, and offers no removal of a required one', () => {
    const { onChange } = renderPicker({ file: 'photo1', alt: 'x' }, { optional: true });
    fireEvent.click(screen.getByRole('button', { name: /Remove image/ }));
    expect(onChange).toHaveBeenLastCalledWith(null);
    expect(screen.getByText('No image')).toBeTruthy();
    expect(screen.getByLabelText(/Choose image…/)).toBeTruthy();
    expect(screen.queryByLabelText('Description for screen readers')).toBeNull();
  });

  it('has no Remove for a required image, and shows the form’s error', () => {
    renderPicker({ file: 'photo1', alt: '' }, { error: 'Choose an image.' });
    expect(screen.queryByRole('button', { name: /Remove image/ })).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('Choose an image.');
    expect(screen.getByLabelText(/Replace image/).getAttribute('aria-invalid')).toBe('true');
  });
});
