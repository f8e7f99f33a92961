/** The Lua scripts of the rate limiter (RateLimiter), each one atomic call to Redis. */

/**
 * One call per lease: returns unused tokens of an earlier lease (only into the window they came
 * from), then grants up to `want` new ones: never more than an eighth of what is left in the
 * window (but at least one while anything is), so near the limit leases shrink to single tokens
 * and the budget is not stranded in processes that will not use it.
 * KEYS[1] the key's bucket; ARGV: limit, windowMs, want, giveBack, giveBackWindow, newWindowId.
 * Returns { granted, msUntilWindowEnds, windowId }.
 */
export const TAKE = `
local limit = tonumber(ARGV[1])
local want = tonumber(ARGV[3])
local back = tonumber(ARGV[4])
local w = redis.call('HGET', KEYS[1], 'w')
local ttl
local n = 0
if not w then
  w = ARGV[6]
  ttl = tonumber(ARGV[2])
  redis.call('HSET', KEYS[1], 'w', w, 'n', 0)
  redis.call('PEXPIRE', KEYS[1], ttl)
else
  ttl = redis.call('PTTL', KEYS[1])
  n = tonumber(redis.call('HGET', KEYS[1], 'n')) or 0
  if ttl <= 0 then
    ttl = tonumber(ARGV[2])
    redis.call('PEXPIRE', KEYS[1], ttl)
  end
end
if back > 0 and ARGV[5] == w then n = math.max(0, n - back) end
local grant = 0
local left = limit - n
if want > 0 and left > 0 then grant = math.min(want, left, math.max(1, math.floor(left / 8))) end
redis.call('HSET', KEYS[1], 'n', n + grant)
return { grant, ttl, w }
`;

/**
 * A weighted increment of the key's fixed window (started by its first spend): adds the cost,
 * and takes it back when the window would exceed the limit, so a refused request spends nothing.
 * KEYS[1] the key's window; ARGV: cost, limit, windowMs. Returns { admitted (1|0), msLeft }.
 */
export const SPEND = `
local cost = tonumber(ARGV[1])
local n = redis.call('INCRBY', KEYS[1], cost)
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  ttl = tonumber(ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ttl)
end
if n > tonumber(ARGV[2]) then
  redis.call('DECRBY', KEYS[1], cost)
  return { 0, ttl }
end
return { 1, ttl }
`;
