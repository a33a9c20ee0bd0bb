import type { CallError, CallNode, Operation } from './calls.js';
import { Cursor, failed, grpc, http } from './cursor.js';
import { failureMessage } from './faults.js';
import type { Fleet } from './fleet.js';
import { PRODUCTS } from './world.js';
import type { Random } from '../core/random.js';
import type { Conditions } from './conditions.js';

export const BROKEN_PRODUCT = 'OLJCESPC7Z';

const CART_STORAGE_ERROR: CallError = { grpcCode: 14, message: "Can't access cart storage. System.ApplicationException: Wasn't able to connect to redis" };

/** Callers of currency give up after this long (a gRPC deadline); the server span runs on. */
const CURRENCY_DEADLINE_MS = 250;

function deadline(node: CallNode, ms: number): CallNode {
  if (node.endMs - node.startMs > ms) {
    node.clientEndMs = node.startMs + ms;
    node.clientError = { grpcCode: 4, message: 'context deadline exceeded' };
  }
  return node;
}

export class RequestBuilder {
  constructor(
    private readonly rng: Random,
    private readonly cond: Conditions,
    private readonly fleet: Fleet | null = null,
  ) {}

  private cursor(caller: string | null, callee: string, op: Operation, start: number, attrs?: CallNode['attributes']): Cursor {
    return new Cursor(this.rng, caller, callee, op, start, attrs, this.cond, this.fleet);
  }

  private sql(caller: string, start: number, operation: string, table: string, statement: string, medianMs: number): CallNode {
    const c = this.cursor(caller, 'postgres', { protocol: 'sql', dbSystem: 'postgresql', dbOperation: operation, dbTable: table, statement }, start);
    return c.work(this.rng.lognormal(medianMs, 0.5)).end();
  }

  private cache(caller: string, start: number, operation: string): CallNode {
    const c = this.cursor(caller, 'valkey', { protocol: 'cache', dbSystem: 'redis', dbOperation: operation }, start);
    return c.work(this.rng.lognormal(0.4, 0.4)).end();
  }

  getProduct(caller: string, start: number, productId: string): CallNode {
    const c = this.cursor(caller, 'product-catalog', grpc('oteldemo.ProductCatalogService', 'GetProduct'), start, { 'app.product.id': productId });
    c.work(this.rng.lognormal(0.6, 0.4));
    if (this.cond.productCatalogFailure && productId === BROKEN_PRODUCT) {
      return c.work(0.3).end({ grpcCode: 13, message: `Error: Product Catalog Fail Feature Flag Enabled` });
    }
    c.call((t) => this.sql('product-catalog', t, 'SELECT', 'products', 'SELECT id, name, description, picture, price_usd, categories FROM products WHERE id = $1', 1.2));
    return c.work(0.2).end();
  }

  listProducts(caller: string, start: number): CallNode {
    const c = this.cursor(caller, 'product-catalog', grpc('oteldemo.ProductCatalogService', 'ListProducts'), start);
    c.work(this.rng.lognormal(0.8, 0.4));
    c.call((t) => this.sql('product-catalog', t, 'SELECT', 'products', 'SELECT id, name, description, picture, price_usd, categories FROM products', 2.5));
    return c.work(0.4).end();
  }

  listRecommendations(caller: string, start: number): CallNode {
    const c = this.cursor(caller, 'recommendation', grpc('oteldemo.RecommendationService', 'ListRecommendations'), start);
    const cacheFailure = this.cond.recommendationCacheFailure ?? 0;
    // Cache misses grow the product list it walks: time grows with how long the flag has been on.
    c.work(this.rng.lognormal(3 + 180 * cacheFailure, 0.45 + 0.35 * cacheFailure));
    const list = c.call((t) => this.listProducts('recommendation', t));
    if (failed(list)) return c.work(0.3).end({ grpcCode: 13, message: failureMessage(list, 'failed to list products') });
    return c.work(this.rng.lognormal(1.5 + 60 * cacheFailure, 0.5)).end();
  }

  getAds(caller: string, start: number): CallNode {
    const c = this.cursor(caller, 'ad', grpc('oteldemo.AdService', 'GetAds'), start);
    c.work(this.rng.lognormal(2.5, 0.6));
    // adMemoryLeak: garbage-collection pauses grow as the heap fills (intensity = how full it is).
    const heap = this.cond.adMemoryLeak;
    if (heap) c.work(this.rng.lognormal(1 + 150 * heap ** 3, 0.6));
    return c.end();
  }

  convert(caller: string, start: number): CallNode {
    const c = this.cursor(caller, 'currency', grpc('oteldemo.CurrencyService', 'Convert'), start);
    c.work(this.rng.lognormal(0.5, 0.3));
    this.currencyStall(c);
    return deadline(c.end(), CURRENCY_DEADLINE_MS);
  }

  supportedCurrencies(caller: string, start: number): CallNode {
    const c = this.cursor(caller, 'currency', grpc('oteldemo.CurrencyService', 'GetSupportedCurrencies'), start);
    c.work(this.rng.lognormal(0.3, 0.3));
    this.currencyStall(c);
    return deadline(c.end(), CURRENCY_DEADLINE_MS);
  }

  /** currencySlow: the rates provider stalls; currency answers late but never fails itself. */
  private currencyStall(c: Cursor): void {
    const slow = this.cond.currencySlow;
    if (slow) c.work(this.rng.lognormal(130 * slow, 0.7));
  }

  getCart(caller: string, start: number): CallNode {
    const c = this.cursor(caller, 'cart', grpc('oteldemo.CartService', 'GetCart'), start);
    c.work(this.rng.lognormal(0.5, 0.3));
    c.call((t) => this.cache('cart', t, 'HGET'));
    return c.work(0.2).end();
  }

  addItem(caller: string, start: number, productId: string): CallNode {
    const c = this.cursor(caller, 'cart', grpc('oteldemo.CartService', 'AddItem'), start, { 'app.product.id': productId });
    c.work(this.rng.lognormal(0.6, 0.3));
    if (this.cartWriteFails()) return c.work(0.3).end(CART_STORAGE_ERROR);
    c.call((t) => this.cache('cart', t, 'HSET'));
    c.call((t) => this.cache('cart', t, 'EXPIRE'));
    return c.work(0.2).end();
  }

  emptyCart(caller: string, start: number): CallNode {
    const c = this.cursor(caller, 'cart', grpc('oteldemo.CartService', 'EmptyCart'), start);
    c.work(this.rng.lognormal(0.4, 0.3));
    if (this.cartWriteFails()) return c.work(0.3).end(CART_STORAGE_ERROR);
    c.call((t) => this.cache('cart', t, 'HDEL'));
    return c.work(0.1).end();
  }

  /** cartWriteFailure: a share of cart writes cannot reach the cache (a chronic fault). */
  private cartWriteFails(): boolean {
    const p = this.cond.cartWriteFailure ?? 0;
    return p > 0 && this.rng.chance(p);
  }

  getQuote(caller: string, start: number): CallNode {
    const c = this.cursor(caller, 'quote', http('POST', '/getquote', '/getquote', '/getquote'), start);
    return c.work(this.rng.lognormal(2, 0.4)).end(undefined, 200);
  }

  shippingQuote(caller: string, start: number): CallNode {
    const c = this.cursor(caller, 'shipping', http('POST', '/get-quote', '/get-quote', '/get-quote'), start);
    c.work(this.rng.lognormal(0.8, 0.3));
    c.call((t) => this.getQuote('shipping', t));
    return c.work(0.3).end(undefined, 200);
  }

  shipOrder(caller: string, start: number): CallNode {
    const c = this.cursor(caller, 'shipping', http('POST', '/ship-order', '/ship-order', '/ship-order'), start);
    return c.work(this.rng.lognormal(1.2, 0.4)).end(undefined, 200);
  }

  charge(caller: string, start: number, amount: number): CallNode {
    const c = this.cursor(caller, 'payment', grpc('oteldemo.PaymentService', 'Charge'), start, { 'app.payment.amount': amount });
    c.work(this.rng.lognormal(4, 0.5));
    // paymentSlow: the card network answers in seconds.
    const slow = this.cond.paymentSlow;
    if (slow) c.work(this.rng.lognormal(1400 * slow, 0.45));
    const p = this.cond.paymentFailure ?? 0;
    if (p > 0 && this.rng.chance(p)) return c.work(0.5).end({ grpcCode: 2, message: 'Invalid token. app.loyalty.level=gold is not allowed.' });
    return c.work(0.3).end();
  }

  sendConfirmation(caller: string, start: number): CallNode {
    const c = this.cursor(caller, 'email', http('POST', '/send_order_confirmation', '/send_order_confirmation', '/send_order_confirmation'), start);
    return c.work(this.rng.lognormal(6, 0.5)).end(undefined, 200);
  }

  publishOrder(caller: string, start: number, orderId: string): CallNode {
    const c = this.cursor(caller, 'kafka', { protocol: 'kafka', topic: 'orders' }, start, { 'app.order.id': orderId });
    return c.work(this.rng.lognormal(1.5, 0.4)).end();
  }

  placeOrder(caller: string, start: number, items: string[]): CallNode {
    const c = this.cursor(caller, 'checkout', grpc('oteldemo.CheckoutService', 'PlaceOrder'), start, { 'app.user.currency': 'USD' });
    c.work(this.rng.lognormal(0.6, 0.3));
    const cart = c.call((t) => this.getCart('checkout', t));
    if (failed(cart)) return c.work(0.3).end({ grpcCode: 13, message: `failed to get user cart during checkout: ${failureMessage(cart, 'cart unavailable')}` });
    for (const id of items) {
      const p = c.call((t) => this.getProduct('checkout', t, id));
      if (failed(p)) return c.work(0.4).end({ grpcCode: 13, message: `failed to prepare order: failed to get product #"${id}"${p.error?.origin || p.clientError?.origin ? `: ${failureMessage(p, '')}` : ''}` });
    }
    const converted = c.call((t) => this.convert('checkout', t));
    if (failed(converted)) return c.work(0.3).end({ grpcCode: 13, message: `failed to convert price: ${failureMessage(converted, 'rpc error: code = DeadlineExceeded desc = context deadline exceeded')}` });
    const quote = c.call((t) => this.shippingQuote('checkout', t));
    if (failed(quote)) return c.work(0.3).end({ grpcCode: 13, message: `failed to get shipping quote: ${failureMessage(quote, 'shipping unavailable')}` });
    const bug = this.cond.checkoutBug ?? 0;
    if (bug > 0 && this.rng.chance(bug)) return c.work(0.8).end({ grpcCode: 13, message: 'failed to prepare order: shipping address validation failed: invalid zip code format' });
    const amount = Math.round(this.rng.lognormal(80, 0.8) * 100) / 100;
    const charge = c.call((t) => this.charge('checkout', t, amount));
    if (failed(charge)) return c.work(0.4).end({ grpcCode: 13, message: `failed to charge card: could not charge the card: ${failureMessage(charge, `rpc error: code = Unknown desc = ${charge.error?.message}`)}` });
    c.call((t) => this.shipOrder('checkout', t));
    c.call((t) => this.emptyCart('checkout', t));
    c.call((t) => this.sendConfirmation('checkout', t));
    const orderId = this.rng.hex(16);
    c.node.attributes['app.order.id'] = orderId;
    const copies = this.cond.kafkaQueueProblems ? 1 + this.rng.int(20, 40) : 1;
    for (let i = 0; i < copies; i++) c.call((t) => this.publishOrder('checkout', t, orderId));
    return c.work(0.3).end();
  }

  // Frontend routes. The SDK (Next.js) spells dynamic segments [productId]; Beyla reports `*`.

  private frontend(route: string, beylaRoute: string, path: string, method: string, start: number, body: (c: Cursor) => CallError | undefined): CallNode {
    const c = this.cursor('frontend-proxy', 'frontend', http(method, route, beylaRoute, path), start);
    c.work(this.rng.lognormal(1.5, 0.5));
    const err = body(c);
    c.work(this.rng.lognormal(0.8, 0.5));
    return err ? c.end({ ...err, httpStatus: 500 }) : c.end(undefined, 200);
  }

  productPage(start: number): CallNode {
    const id = this.rng.weighted(PRODUCTS.map((p, i) => [p, i === 0 ? 2 : 1] as const));
    return this.frontend('/api/products/[productId]', '/api/products/*', `/api/products/${id}`, 'GET', start, (c) => {
      const [product] = c.parallel([(t) => this.getProduct('frontend', t, id), (t) => this.listRecommendations('frontend', t), (t) => this.getAds('frontend', t)]);
      if (failed(product)) return { message: failureMessage(product, 'Error: 13 INTERNAL: Error: Product Catalog Fail Feature Flag Enabled') };
      const converted = c.call((t) => this.convert('frontend', t));
      if (failed(converted)) return { message: failureMessage(converted, 'Error: 4 DEADLINE_EXCEEDED: Deadline exceeded') };
      return undefined;
    });
  }

  recommendations(start: number): CallNode {
    return this.frontend('/api/recommendations', '/api/recommendations', '/api/recommendations', 'GET', start, (c) => {
      c.call((t) => this.listRecommendations('frontend', t));
      return undefined;
    });
  }

  cartView(start: number): CallNode {
    return this.frontend('/api/cart', '/api/cart', '/api/cart', 'GET', start, (c) => {
      const cart = c.call((t) => this.getCart('frontend', t));
      if (failed(cart)) return { message: failureMessage(cart, 'cart unavailable') };
      // cartViewN1: a release that fetches the cart once more per item it renders (N+1 calls).
      if (this.cond.cartViewN1) {
        const items = this.rng.int(10, 24);
        for (let i = 0; i < items; i++) c.call((t) => this.getCart('frontend', t));
        c.work(this.rng.lognormal(3, 0.4));
      }
      return undefined;
    });
  }

  cartAdd(start: number): CallNode {
    const id = this.rng.pick(PRODUCTS);
    return this.frontend('/api/cart', '/api/cart', '/api/cart', 'POST', start, (c) => {
      const p = c.call((t) => this.getProduct('frontend', t, id));
      if (failed(p)) return { message: failureMessage(p, 'Error: 13 INTERNAL: Error: Product Catalog Fail Feature Flag Enabled') };
      const added = c.call((t) => this.addItem('frontend', t, id));
      if (failed(added)) return { message: failureMessage(added, `Error: 14 UNAVAILABLE: ${added.error?.message ?? ''}`) };
      return undefined;
    });
  }

  checkout(start: number): CallNode {
    const items = Array.from({ length: this.rng.int(1, 4) }, () => this.rng.pick(PRODUCTS));
    return this.frontend('/api/checkout', '/api/checkout', '/api/checkout', 'POST', start, (c) => {
      const order = c.call((t) => this.placeOrder('frontend', t, items));
      return order.error ? { message: `Error: 13 INTERNAL: ${order.error.message}` } : undefined;
    });
  }

  currencies(start: number): CallNode {
    return this.frontend('/api/currency', '/api/currency', '/api/currency', 'GET', start, (c) => {
      const list = c.call((t) => this.supportedCurrencies('frontend', t));
      if (failed(list)) return { message: failureMessage(list, 'Error: 4 DEADLINE_EXCEEDED: Deadline exceeded') };
      return undefined;
    });
  }

  ads(start: number): CallNode {
    return this.frontend('/api/data', '/api/data', '/api/data', 'GET', start, (c) => {
      const ads = c.call((t) => this.getAds('frontend', t));
      return failed(ads) ? { message: failureMessage(ads, 'ad unavailable') } : undefined;
    });
  }

  image(start: number): CallNode {
    const file = this.rng.pick(['Banner.png', 'EclipsmartTravelRefractorTelescope.jpg', 'LensCleaningKit.jpg', 'NationalParkFoundationExplorascope.jpg', 'StarsenseExplorer.jpg']);
    const c = this.cursor('frontend-proxy', 'image-provider', http('GET', '/static/images/{file}', '/static/images/*', `/static/images/${file}`), start);
    return c.work(this.rng.lognormal(1.2, 0.6)).end(undefined, 200);
  }
}

/** The request mix at the edge (frontend-proxy), by weight. */
export const ROUTE_MIX: readonly (readonly [keyof RequestBuilder & string, number])[] = [
  ['productPage', 32],
  ['image', 18],
  ['cartView', 12],
  ['recommendations', 9],
  ['cartAdd', 10],
  ['checkout', 7],
  ['currencies', 6],
  ['ads', 6],
];

/** The entry point: frontend-proxy receives the request and routes it. */
export function edgeRequest(rng: Random, cond: Conditions, startMs: number, fleet: Fleet | null = null): CallNode {
  const b = new RequestBuilder(rng, cond, fleet);
  const route = rng.weighted(ROUTE_MIX) as 'productPage' | 'image' | 'cartView' | 'recommendations' | 'cartAdd' | 'checkout' | 'currencies' | 'ads';
  const proxy = new Cursor(rng, null, 'frontend-proxy', { protocol: 'http', method: 'GET' }, startMs, {}, {}, fleet);
  proxy.work(rng.lognormal(0.3, 0.3));
  const inner = proxy.call((t) => b[route](t));
  proxy.node.op = { ...inner.op };
  const node = proxy.work(0.2).end(inner.error ? { httpStatus: 500, message: 'upstream returned 500' } : undefined, inner.error ? undefined : 200);
  return node;
}
