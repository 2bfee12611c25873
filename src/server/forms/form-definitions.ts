import type { Config } from '../config/load-config';
import type { FormKind } from '../../shared/forms/form-fields';
import { formSchemas, type FormInput } from '../../shared/forms/form-schemas';
import type { TableName } from '../../shared/tables';
import {
  contactEmail,
  freeGuideEmail,
  orderEmail,
  refundEmail,
  termsFeedbackEmail,
  type Notification,
  type SubmissionMeta,
} from './notification-emails';
import { guideFilePath } from '../../shared/store/files-api';
import type { StoreContent } from '../../shared/store/store-content';

/** The columns a form writes besides name, email and the email status. */
export type ExtraColumns = { message?: string; purchase_intent?: boolean };

/**
 * Everything that differs between the five forms: where a submission is stored, what it
 * writes, the owner's email, and what the visitor gets back besides the status.
 */
export type FormDefinition<K extends FormKind = FormKind> = {
  schema: (typeof formSchemas)[K];
  table: Extract<
    TableName,
    | 'form_submissions'
    | 'refund_inquiries'
    | 'terms_of_service_feedback'
    | 'free_product_gift_submissions'
  >;
  columns(input: FormInput<K>): ExtraColumns;
  notification(input: FormInput<K>, meta: SubmissionMeta): Notification;
  /** Added to the success and duplicate answers. */
  extra?(config: Config, content: StoreContent): { guideUrl: string };
  /**
   * The answer tells the visitor whether the owner's email went out (the free-guide popup's
   * banner), so the request sends it before answering. The other forms answer right after the
   * commit and leave the email to the delivery worker (DESIGN.md "Mail delivery").
   */
  answersAfterEmail?: true;
};

const definitions: { [K in FormKind]: FormDefinition<K> } = {
  order: {
    schema: formSchemas.order,
    table: 'form_submissions',
    columns: ({ message }) => ({ message, purchase_intent: true }),
    notification: (input, meta) => orderEmail({ ...input, ...meta, purchaseIntent: true }),
  },
  contact: {
    schema: formSchemas.contact,
    table: 'form_submissions',
    columns: ({ message }) => ({ message, purchase_intent: false }),
    notification: (input, meta) => contactEmail({ ...input, ...meta }),
  },
  refund: {
    schema: formSchemas.refund,
    table: 'refund_inquiries',
    columns: ({ message }) => ({ message }),
    notification: (input, meta) => refundEmail({ ...input, ...meta }),
  },
  'terms-feedback': {
    schema: formSchemas['terms-feedback'],
    table: 'terms_of_service_feedback',
    columns: ({ message }) => ({ message }),
    notification: (input, meta) => termsFeedbackEmail({ ...input, ...meta }),
  },
  'free-guide': {
    schema: formSchemas['free-guide'],
    table: 'free_product_gift_submissions',
    columns: () => ({}),
    notification: (input, meta) => freeGuideEmail({ ...input, ...meta }),
    // The guide the owner uploaded, else GUIDE_URL.
    extra: (config, { guide }) => ({
      guideUrl: guide.file ? guideFilePath(guide.file) : config.guideUrl,
    }),
    answersAfterEmail: true,
  },
};

export function formDefinition<K extends FormKind>(form: K): FormDefinition<K> {
  return definitions[form];
}
