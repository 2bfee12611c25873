import { fileSummary, type UploadedFile } from '../../../shared/store/files-api';
import type { StoreImage } from '../../../shared/store/store-content';
import { FilePicker } from './file-picker';
import { ImagePicker } from './image-picker';
import { valueAt } from './store-form';
import { useStoreFields } from './store-fields';

/** Shows an upload at once: the store's files know it before the next load. */
function useKeepUpload() {
  const { addFile } = useStoreFields();
  return (uploaded: UploadedFile | undefined) => {
    if (uploaded) addFile(uploaded.id, fileSummary(uploaded));
  };
}

/** The image of the content at `path`: uploaded or built in, with its description. */
export function ImageField({
  path,
  label,
  optional = false,
}: {
  path: string;
  label: string;
  optional?: boolean;
}) {
  const { form, errors, set, files } = useStoreFields();
  const keep = useKeepUpload();
  const error = errors[`${path}.file`] ?? errors[`${path}.alt`] ?? errors[path];
  return (
    <ImagePicker
      label={label}
      value={(valueAt(form.content, path) as StoreImage | null | undefined) ?? null}
      files={files}
      optional={optional}
      error={error}
      onChange={(value, uploaded) => {
        keep(uploaded);
        set(path, value);
      }}
    />
  );
}

/** The product or guide file at `path`; null is the one the server was configured with. */
export function FileField({
  path,
  kind,
  label,
}: {
  path: string;
  kind: 'product' | 'guide';
  label: string;
}) {
  const { form, errors, set, files } = useStoreFields();
  const keep = useKeepUpload();
  return (
    <FilePicker
      label={label}
      kind={kind}
      value={(valueAt(form.content, path) as string | null | undefined) ?? null}
      files={files}
      error={errors[path]}
      onChange={(id, uploaded) => {
        keep(uploaded);
        set(path, id);
      }}
    />
  );
}
