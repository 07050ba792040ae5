/** The document (a server component); the store's provider is a client component inside it. */
import type { ReactNode } from 'react';
import { StoreProvider } from './StoreProvider';

// No favicon request (a 404 in the console).
export const metadata = { title: 'lenscache: Next.js App Router', icons: { icon: 'data:,' } };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <StoreProvider>{children}</StoreProvider>
      </body>
    </html>
  );
}
