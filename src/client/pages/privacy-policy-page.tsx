import { useSyncExternalStore } from 'react';
import { hasGlobalPrivacyControl } from '../analytics/analytics';
import { usePageView } from '../analytics/use-page-view';
import { Link } from '../routing/router';
import { LastUpdated } from '../components/last-updated';
import { PolicySection, StaticPage } from '../components/static-page';
import { paths } from '../../shared/paths';
import { product } from '../../shared/product';

const noSubscription = () => () => {};

/** Tells visitors whether their browser sends Global Privacy Control, and what that changes. */
function GpcStatus() {
  const gpc = useSyncExternalStore(noSubscription, hasGlobalPrivacyControl, () => false);
  return (
    <p className="rounded-2xl border border-sage-200 bg-sage-50 p-4" role="status">
      {gpc
        ? 'Your browser is sending the Global Privacy Control signal: we have treated it as your opt-out, so your browser sends us no visit statistics at all, and even the in-browser analytics notes are switched off.'
        : 'Your browser is not sending the Global Privacy Control signal right now.'}
    </p>
  );
}

export function PrivacyPolicyPage() {
  usePageView('privacy_policy');
  return (
    <StaticPage title="Privacy Policy" lead={<LastUpdated />}>
      <PolicySection title="General Information">
        <p>
          This policy explains what personal information the {product.name} website collects, why,
          and what choices you have. We collect as little as we can and never sell your data.
        </p>
      </PolicySection>
      <PolicySection title="Collecting Personal Information">
        <p>Through the forms on this site, we collect only what you choose to send us:</p>
        <ul className="list-disc space-y-2 pl-6">
          <li>
            the order and contact forms: your name, email address, your message and whether you
            intend to buy;
          </li>
          <li>the free Mindfulness Guide form: your name and email address;</li>
          <li>
            the refund inquiry and terms feedback forms: your name, email address and message.
          </li>
        </ul>
        <p>
          We store each submission with the time it was sent and use it only to answer you and
          deliver what you asked for. Each submission is emailed to us so that we can reply.
        </p>
        <p>
          Our own server also counts page views and a few actions: the free guide offer being shown
          or closed, the guide being requested, a form being sent and the checkout button being
          clicked. Each of these holds only what happened, when, and the page’s path (such as
          /privacy-policy), never anything you typed.
        </p>
        <p>
          To count each visitor once per day without knowing who they are, the server turns a random
          value that changes every day, your IP address and your browser’s user agent into a one-way
          hash. Your IP address and user agent are never stored for these statistics, and the day’s
          random value is deleted when the day ends, so visits cannot be linked across days or back
          to a person. The individual events are deleted after two days, leaving only daily totals.
          We share none of this with anyone.
        </p>
        <p>
          Payments are handled by our external checkout provider on its own secure page. We never
          see or store your card details.
        </p>
        <p>
          Like any website, our server briefly keeps technical logs (such as your IP address, the
          page requested and the time) to keep the site secure and to limit abusive form use.
        </p>
      </PolicySection>
      <PolicySection title="Cookies and Targeted Advertising">
        <p>
          This site uses no advertising cookies, no third-party trackers and no third-party
          analytics. Everything you see, including images and fonts, is served from our own server.
          Our visit statistics, described above, are counted by our own server alone: they use no
          cookies and store nothing in your browser that could recognise you. The site remembers in
          your browser, for the current visit only, whether it has already shown you the free guide
          offer.
        </p>
        <p>
          Residents of U.S. states with consumer privacy laws (such as California, Colorado,
          Connecticut, Virginia, Utah, Texas and Oregon) have the right to opt out of the sale of
          personal information and of its use for targeted advertising. We do neither, and you can
          still tell us to opt you out at any time through our contact page.
        </p>
        <p>
          We honour the Global Privacy Control (GPC) signal as a valid opt-out request. When your
          browser sends it, we treat it as your opt-out: your browser sends us no visit statistics
          at all, our server ignores anything that arrives with the signal, and even the in-browser
          analytics notes are switched off.
        </p>
        <GpcStatus />
      </PolicySection>
      <PolicySection title="Your Rights">
        <p>Wherever you live, you can ask us at any time for:</p>
        <ul className="list-disc space-y-2 pl-6">
          <li>Access: a copy of the personal information we hold about you.</li>
          <li>Portability: that information in a common, machine-readable format.</li>
          <li>Correction: fixing anything that is inaccurate or incomplete.</li>
          <li>Erasure: deleting your information from our records.</li>
        </ul>
        <p>We answer every request within 30 days and never charge for it.</p>
      </PolicySection>
      <PolicySection title="Contact">
        <p>
          For any question about this policy or your data, please reach us through our{' '}
          <Link to={paths.contactUs}>contact page</Link>.
        </p>
      </PolicySection>
    </StaticPage>
  );
}
