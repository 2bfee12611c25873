import { conversion, track } from '../../analytics/analytics';
import { CheckoutLink } from '../../components/checkout-link';
import { useOffer, useStoreContent } from '../../routing/public-config';
import { formPrimaryButton } from '../../components/styles';
import { VisitorForm, formSubmissionError, requestAlreadySent } from './visitor-form';

/** The order form (SPEC.md §2 "Order form"): purchase intent true. */
export function OrderForm() {
  const { product } = useStoreContent();
  const offer = useOffer();
  return (
    <VisitorForm
      form="order"
      label="Order form"
      header={
        <>
          <h2 className="text-3xl font-semibold tracking-tight text-sage-800">
            Complete Your Order
          </h2>
          <p className="mt-2 text-ink-muted">Fill out the form to receive your {product.name}.</p>
        </>
      }
      labels={{ name: 'Full Name *', email: 'Email *', message: 'Message (Optional)' }}
      placeholders={{
        name: 'Your full name',
        email: 'you@example.com',
        message: 'Anything you would like to ask before you buy?',
      }}
      required={['name', 'email']}
      submitLabel="Ask Questions First"
      submitStyle="secondary"
      outcomes={{
        success: {
          title: 'Order sent successfully!',
          text: 'We will contact you soon to complete your purchase.',
        },
        duplicate: requestAlreadySent,
        error: formSubmissionError,
      }}
      actions={
        <CheckoutLink source="order_form" className={formPrimaryButton}>
          Buy Now - {offer.price}
        </CheckoutLink>
      }
      footer={
        <div className="space-y-1 text-sm text-ink-muted">
          <p>The Buy Now button takes you to a secure checkout page.</p>
          <p>Your data is safe with us and will not be shared with third parties.</p>
        </div>
      }
      onAttempt={() =>
        track('form_submission_attempt', { form_type: 'order', purchase_intent: true })
      }
      onSuccess={() => conversion('purchase_intent', { value: offer.value })}
    />
  );
}
