import { Heading } from '@radix-ui/themes';

export default function NotFound() {
  return <Heading as="h1">404</Heading>;
}
