/**
 * The page, rendered whole (html, head, body) on the server and hydrated in the browser. The two
 * parts read different endpoints under their own Suspense boundaries: the server streams each
 * as its answer lands (the product first, the reviews later), and the browser fetches neither.
 */
import { useController, useSuspense } from 'lenscache/react';
import { Suspense } from 'react';
import { getProduct, getReviews } from './api';

function ProductName({ id }: { id: string }) {
  const product = useSuspense(getProduct, { id });
  // The name is text, whatever it holds (this one holds markup).
  return <h1 data-testid="product-name">{product.name}</h1>;
}

function Reviews({ id }: { id: string }) {
  const reviews = useSuspense(getReviews, { id });
  const controller = useController();
  return (
    <section data-testid="reviews">
      <ul>
        {reviews.map(review => (
          <li key={review.id}>{review.text}</li>
        ))}
      </ul>
      {/* In the browser, after hydration: the store is live. */}
      <button data-testid="refresh" onClick={() => void controller.fetch(getReviews, { id })}>
        Refresh the reviews
      </button>
    </section>
  );
}

export function App() {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <link rel="icon" href="data:," />
        <title>lenscache: a streamed server render</title>
      </head>
      <body>
        <Suspense fallback={<p data-testid="product-loading">Loading the product…</p>}>
          <ProductName id="1" />
        </Suspense>
        <Suspense fallback={<p data-testid="reviews-loading">Loading the reviews…</p>}>
          <Reviews id="1" />
        </Suspense>
      </body>
    </html>
  );
}
