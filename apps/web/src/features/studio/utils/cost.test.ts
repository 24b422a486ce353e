import { describe, expect, it } from 'vitest';
import {
  ANIMATE_DURATIONS,
  creditsFor,
  TOOL_DEFINITIONS,
  TOOLS,
  UPSCALE_FACTORS,
  type Tool,
} from '@lumina/contracts';
import { initialForms, type ToolForms } from '../tools';
import { toolCost } from './cost';

/** The form with every option the price can depend on. */
function formsFor<T extends Tool>(tool: T): ToolForms[T][] {
  const form = initialForms[tool];
  if ('factor' in form) return UPSCALE_FACTORS.map((factor) => ({ ...form, factor }));
  if ('duration' in form) return ANIMATE_DURATIONS.map((duration) => ({ ...form, duration }));
  return [form];
}

describe('the price the Studio shows', () => {
  it("is the contracts' price function's answer (what the server charges) for every tool and option", () => {
    for (const tool of TOOLS) {
      for (const form of formsFor(tool)) {
        for (const creditCost of [1, 3]) {
          const settings = form as { factor?: number; duration?: number };
          expect(toolCost(tool, { credit_cost: creditCost }, form), `${tool} ${JSON.stringify(form)}`).toBe(
            creditsFor({
              capability: tool,
              creditCost,
              factor: settings.factor,
              durationSeconds: settings.duration,
            }),
          );
        }
      }
    }
  });

  it('follows each price rule: per run, ×2 for a 4× upscale, per second of video', () => {
    expect(TOOL_DEFINITIONS.upscale.price.per).toBe('factor');
    expect(toolCost('upscale', { credit_cost: 3 }, { ...initialForms.upscale, factor: 4 })).toBe(6);
    expect(toolCost('upscale', { credit_cost: 3 }, { ...initialForms.upscale, factor: 2 })).toBe(3);
    expect(toolCost('animate', { credit_cost: 2 }, { ...initialForms.animate, duration: 10 })).toBe(20);
    expect(toolCost('edit', { credit_cost: 4 }, initialForms.edit)).toBe(4);
    expect(toolCost('copy_style', undefined, initialForms.copy_style)).toBe(0);
  });
});
