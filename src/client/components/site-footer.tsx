import { Link } from 'react-router';
import { paths } from '../../shared/paths';
import { product } from '../../shared/product';

const footerLinks = [
  { to: paths.contactUs, label: 'Contact Us' },
  { to: paths.privacyPolicy, label: 'Privacy Policy' },
  { to: paths.refundPolicy, label: 'Refund Policy' },
  { to: paths.termsOfService, label: 'Terms of Service' },
] as const;

export function SiteFooter() {
  return (
    <footer className="border-t border-sand-300 bg-sand-100">
      <div className="mx-auto flex max-w-5xl flex-col gap-4 px-6 py-8 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-ink-muted">
          © {product.copyrightYear} {product.name}. All rights reserved.
        </p>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            {footerLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}
