import { applyDiscount } from '../src/discount.js';

const order = { items: [{ price: 20, quantity: 2 }], customerEmail: 'a@example.com' };
console.assert(applyDiscount(order, 'spring10') === 36);
