import { useStoreContent } from '../routing/public-config';

/** "Last updated: May 15, 2025", from the policies' date in the store content. */
export function LastUpdated() {
  const { updatedOn } = useStoreContent().policies;
  const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${updatedOn}T00:00:00Z`),
  );
  return <p>Last updated: {date}</p>;
}
