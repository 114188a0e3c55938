/**
 * Issue 29: a database that cannot be reached is a 503 `unavailable` with the Serbian message and Retry-After,
 * never a 500; a wrong query stays a 500. (The two-node test with PostgreSQL really cut is
 * tests/reliability/postgres-fault.test.ts.)
 */
import express from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { srv } from '@shared/texts/server';
import { isDatabaseUnavailable } from '../../../server/db/unavailable';
import { errorHandler } from '../../../server/http/errors';

const withCode = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('isDatabaseUnavailable', () => {
  it('is true for a refused, reset or timed-out connection, a pool that cannot connect, and a server shutting down', () => {
    for (const err of [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('connection failure', '08006'),
      withCode('sorry, too many clients already', '53300'),
      new AggregateError([withCode('a', 'ECONNREFUSED'), withCode('b', 'ECONNREFUSED')]),
    ]) {
      expect(isDatabaseUnavailable(err), err.message).toBe(true);
    }
  });

  it('is false for a wrong query, a constraint, a plain bug and anything that is not an error', () => {
    for (const err of [withCode('duplicate key value violates unique constraint', '23505'), withCode('syntax error at or near "x"', '42601'), new TypeError('x is undefined'), 'ECONNREFUSED', null, { code: 42 }]) {
      expect(isDatabaseUnavailable(err)).toBe(false);
    }
  });
});

describe('the error handler', () => {
  const app = express();
  app.get('/down', () => {
    throw withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED');
  });
  app.get('/bug', () => {
    throw new TypeError('x is undefined');
  });
  app.use(errorHandler(pino({ level: 'silent' })));

  it('answers an unreachable database with 503 unavailable, the Serbian message and Retry-After', async () => {
    const res = await request(app).get('/down');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({ detail: srv.unavailable, message: srv.unavailable, code: 'unavailable' });
  });

  it('still answers a bug with 500 internal', async () => {
    const res = await request(app).get('/bug');
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('internal');
  });
});
