import { product } from '../../shared/product';

export function LastUpdated() {
  return <p>Last updated: {product.policiesLastUpdated}</p>;
}
