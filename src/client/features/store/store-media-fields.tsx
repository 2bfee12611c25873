import { valueAt } from './store-form';
import { TextField, useStoreFields } from './store-fields';

/** An image of the content at `path` (uploaded, or one the site was built with). */
export function ImageField({
  path,
  label,
  optional = false,
}: {
  path: string;
  label: string;
  optional?: boolean;
}) {
  const { form } = useStoreFields();
  const value = valueAt(form.content, path);
  if (!value && optional) return null;
  return <TextField path={`${path}.alt`} label={`${label}: description`} />;
}

/** The product or guide file at `path`. */
export function FileField({
  path,
  label,
}: {
  path: string;
  kind: 'product' | 'guide';
  label: string;
}) {
  return (
    <p>
      {label}: {path}
    </p>
  );
}
