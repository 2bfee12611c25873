import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { StoreSchedule } from '../../../shared/store/schedule-api';
import { fromLocalInput } from '../../lib/local-date-time';
import { scheduleTime, StoreSchedulePanel } from './store-schedule';

const AT = '2031-12-01T14:00:00.000Z';
const scheduled: StoreSchedule = {
  publishAt: AT,
  createdAt: '2031-11-28T08:00:00.000Z',
  by: 'owner@example.com',
};

function fakeClient(initial: StoreSchedule | null) {
  return {
    schedule: vi.fn(async () => ({ schedule: initial })),
    setSchedule: vi.fn(async (publishAt: string) => ({ ...scheduled, publishAt })),
    cancelSchedule: vi.fn(async () => undefined),
  };
}

describe('scheduleTime', () => {
  it('names the time in the given zone', () => {
    expect(scheduleTime(AT, 'America/New_York')).toBe('Dec 1, 2031, 9:00 AM EST');
    expect(scheduleTime(AT, 'UTC')).toBe('Dec 1, 2031, 2:00 PM UTC');
  });
});

describe('StoreSchedulePanel', () => {
  it('schedules the saved draft at the chosen local time, then shows it with a cancel', async () => {
    const client = fakeClient(null);
    render(<StoreSchedulePanel dirty={false} client={client} />);
    const input = await screen.findByLabelText('Publish at');
    fireEvent.change(input, { target: { value: '2031-12-01T09:30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    const time = await screen.findByText(scheduleTime(fromLocalInput('2031-12-01T09:30')!));
    expect(client.setSchedule).toHaveBeenCalledWith(fromLocalInput('2031-12-01T09:30'));
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('datetime')).toBe(fromLocalInput('2031-12-01T09:30'));
    expect(screen.getByText(/The saved draft will be published on/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel schedule' }));
    expect(await screen.findByLabelText('Publish at')).toBeTruthy();
    expect(client.cancelSchedule).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(/will be published/)).toBeNull();
  });

  it('shows a stored schedule in the owner’s zone', async () => {
    render(<StoreSchedulePanel dirty={false} client={fakeClient(scheduled)} />);
    expect(await screen.findByText(scheduleTime(AT))).toBeTruthy();
    expect(screen.getByText('Scheduled by owner@example.com')).toBeTruthy();
  });

  it('asks for a time, says what the server refuses, and waits for a save', async () => {
    const client = fakeClient(null);
    client.setSchedule.mockRejectedValueOnce(
      new Error('The time to publish must be in the future.'),
    );
    const { rerender } = render(<StoreSchedulePanel dirty={false} client={client} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Schedule' }));
    expect(screen.getByRole('alert').textContent).toBe('Choose the date and time to publish.');
    expect(client.setSchedule).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Publish at'), {
      target: { value: '2020-01-01T09:00' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The time to publish must be in the future.',
    );
    expect(screen.getByLabelText('Publish at')).toBeTruthy();

    rerender(<StoreSchedulePanel dirty client={client} />);
    expect((screen.getByRole('button', { name: 'Schedule' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(screen.getByText(/Save the draft first/)).toBeTruthy();
  });
});
