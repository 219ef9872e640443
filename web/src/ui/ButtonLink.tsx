import { Link, type LinkProps } from 'react-router-dom';
import { type ButtonSize, type ButtonVariant, buttonClass } from './Button.tsx';

// Apart from Button so the entry, which shows buttons before any router is loaded, holds no router.
export function ButtonLink({
  variant = 'primary',
  size = 'md',
  className = '',
  ...props
}: LinkProps & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <Link className={buttonClass(variant, size, className)} {...props} />;
}
