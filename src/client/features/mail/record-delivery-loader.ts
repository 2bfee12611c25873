import type { DeliveryEntry } from '../../../shared/mail/delivery-api';
import type { DeliveryApi } from './delivery-api-client';

type Pending = Map<number, ((entry: DeliveryEntry | undefined) => void)[]>;

const loaders = new WeakMap<DeliveryApi, ReturnType<typeof createLoader>>();

/**
 * Every cell of a page asks for its own record; the asks of one render are sent as one
 * request per table.
 */
function createLoader(api: DeliveryApi) {
  const queued = new Map<string, Pending>();
  let scheduled = false;

  function flush() {
    scheduled = false;
    for (const [table, pending] of queued) {
      queued.delete(table);
      const ids = [...pending.keys()];
      // 200 ids at most per request (the server's limit); a page has far fewer.
      for (let from = 0; from < ids.length; from += 200) {
        const chunk = ids.slice(from, from + 200);
        const settle = (found: Record<string, DeliveryEntry>) => {
          for (const id of chunk) for (const wake of pending.get(id)!) wake(found[String(id)]);
        };
        api.forRecords(table, chunk).then(settle, () => settle({}));
      }
    }
  }

  return {
    load(table: string, id: number): Promise<DeliveryEntry | undefined> {
      return new Promise((resolve) => {
        let pending = queued.get(table);
        if (!pending) queued.set(table, (pending = new Map()));
        pending.set(id, [...(pending.get(id) ?? []), resolve]);
        if (!scheduled) {
          scheduled = true;
          setTimeout(flush, 0);
        }
      });
    },
  };
}

export function recordDeliveryLoader(api: DeliveryApi) {
  let loader = loaders.get(api);
  if (!loader) loaders.set(api, (loader = createLoader(api)));
  return loader;
}
