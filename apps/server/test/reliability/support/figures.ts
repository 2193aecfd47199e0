/** Prints one line of measured figures, the source of the numbers in docs/reliability.md. */
export function reportFigures(proof: string, figures: Record<string, number | string>): void {
  console.log(`reliability figures: ${proof}: ${JSON.stringify(figures)}`);
}
