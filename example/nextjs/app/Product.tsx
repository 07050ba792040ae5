'use client';
/** The page's two reads, each suspending until its data is in the store. */
import { useController, useSuspense } from 'lenscache/react';
import { getProduct, getReviews } from '../lib/api';

export function ProductName({ id }: { id: string }) {
  const product = useSuspense(getProduct, { id });
  // The name is text, whatever it holds (this one holds markup).
  return <h1 data-testid="product-name">{product.name}</h1>;
}

export function Reviews({ id }: { id: string }) {
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
