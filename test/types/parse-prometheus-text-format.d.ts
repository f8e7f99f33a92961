/** The Prometheus text-format parser the metrics tests read scrapes with (it ships no types). */
declare module 'parse-prometheus-text-format' {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
