import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { evaluateExpression, formatNumber } from './calculator';

const CONDITIONS = ['sunny', 'partly cloudy', 'overcast', 'rainy', 'windy', 'foggy'];

/** A made-up but stable forecast: the same city always gets the same weather. */
export function forecast(city: string): string {
  const seed = [...city.trim().toLowerCase()].reduce((sum, char) => sum + char.charCodeAt(0), 0);
  return `It is ${8 + (seed % 22)}°C and ${CONDITIONS[seed % CONDITIONS.length]} in ${city.trim()}.`;
}

export const getWeather = tool(async ({ city }) => forecast(city), {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  schema: z.object({ city: z.string().describe('The city, e.g. "Paris"') }),
});

export const calculator = tool(async ({ expression }) => `${expression} = ${formatNumber(evaluateExpression(expression))}`, {
  name: 'calculator',
  description: 'Evaluate an arithmetic expression with + - * / % ^ and parentheses.',
  schema: z.object({ expression: z.string().describe('The expression, e.g. "(2 + 3) * 4"') }),
});

export const tools = [getWeather, calculator];
