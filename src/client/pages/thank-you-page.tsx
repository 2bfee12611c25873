import { Link } from 'react-router';
import { SimplePage } from '../components/simple-page';
import { paths } from '../../shared/paths';

export function ThankYouPage() {
  return (
    <SimplePage title="Thank You for Your Purchase!">
      <p className="mt-6">
        <Link to={paths.home}>Back to Home</Link>
      </p>
    </SimplePage>
  );
}
