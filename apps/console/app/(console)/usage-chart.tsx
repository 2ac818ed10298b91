'use client';

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface UsagePoint {
  month: string;
  timbres: number;
  spendPesos: number;
}

/** Timbres (left axis) and spend in pesos (right axis) per month, oldest to newest. */
export function UsageChart({
  data,
  labels,
}: {
  data: UsagePoint[];
  labels: { timbres: string; spend: string };
}) {
  return (
    <div role="img" aria-label={`${labels.timbres} / ${labels.spend}`} style={{ width: '100%', height: 280 }}>
      <ResponsiveContainer>
        <BarChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="month" />
          <YAxis yAxisId="timbres" allowDecimals={false} />
          <YAxis yAxisId="spend" orientation="right" />
          <Tooltip />
          <Legend />
          <Bar yAxisId="timbres" dataKey="timbres" name={labels.timbres} fill="#12a594" />
          <Bar yAxisId="spend" dataKey="spendPesos" name={labels.spend} fill="#8e4ec6" />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
