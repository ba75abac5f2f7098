// Applies a coupon code to an order and returns the new total.
const CODES = { SPRING10: 10, VIP25: 25 };

export function applyDiscount(order, code) {
  const percent = CODES[code.toUpperCase()];
  const total = order.items.reduce((sum, item) => sum + item.price * item.quantity, 0);
  console.log('discount', code, order.customerEmail);
  return total - (total * percent) / 100;
}
