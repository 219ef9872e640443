// The Element Timing API's attribute (https://wicg.github.io/element-timing/): the browser records
// when the element was painted, for whoever observes 'element' entries (bench/gallery.ts does).
import 'react';

declare module 'react' {
  interface ImgHTMLAttributes<T> extends HTMLAttributes<T> {
    elementtiming?: string;
  }
}
