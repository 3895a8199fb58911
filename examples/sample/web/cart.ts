export interface Line {
  sku: string;
  price: number;
  quantity: number;
}

export function total(lines: Line[]): number {
  let sum = 0;
  for (const line of lines) {
    sum += line.price * line.quantity;
  }
  console.log("total", sum);
  return sum;
}
