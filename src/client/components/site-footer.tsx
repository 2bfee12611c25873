import { Link } from '../routing/router';
import { track } from '../analytics/analytics';
import { paths } from '../../shared/paths';
import { LogoMark } from './logo';
import { useCopyrightYear } from './use-copyright-year';
import { useStoreContent } from '../routing/public-config';

const footerLinks = [
  { to: paths.contactUs, label: 'Contact Us', destination: 'contact_us' },
  { to: paths.privacyPolicy, label: 'Privacy Policy', destination: 'privacy_policy' },
  { to: paths.refundPolicy, label: 'Refund Policy', destination: 'refund_policy' },
  { to: paths.termsOfService, label: 'Terms of Service', destination: 'terms_of_service' },
] as const;

export function SiteFooter() {
  const { product } = useStoreContent();
  const year = useCopyrightYear();
  return (
    <footer className="border-t border-sand-300 bg-sand-100">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-6 py-10 md:flex-row md:items-center md:justify-between">
        <div className="flex items-center gap-3">
          <LogoMark />
          <div>
            <p className="font-serif text-lg text-sage-800">{product.name}</p>
            <p className="text-sm text-ink-muted">
              © {year} {product.name}. All rights reserved.
            </p>
          </div>
        </div>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6 gap-y-3 text-sm">
            {footerLinks.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="text-ink-muted no-underline hover:text-sage-800 hover:underline"
                  onClick={() =>
                    track('navigation_click', { source: 'footer', destination: link.destination })
                  }
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}
