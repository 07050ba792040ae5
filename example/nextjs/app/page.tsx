/**
 * The page (a server component): two client components under their own Suspense boundaries, each
 * reading an endpoint with useSuspense. The server streams each as its answer lands (the product
 * after 100 ms, the reviews after 800 ms), and the browser fetches neither.
 */
import { Suspense } from 'react';
import { ProductName, Reviews } from './Product';

// Rendered per request: a build-time render would fetch an API that is not running yet.
export const dynamic = 'force-dynamic';

export default function Page() {
  return (
    <main>
      <Suspense fallback={<p data-testid="product-loading">Loading the product…</p>}>
        <ProductName id="1" />
      </Suspense>
      <Suspense fallback={<p data-testid="reviews-loading">Loading the reviews…</p>}>
        <Reviews id="1" />
      </Suspense>
    </main>
  );
}
