import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from '@/modules/accounts';
import { EligibilityModule } from '@/modules/eligibility';
import { PatientLinksService } from './patient-links.service';
import { Patient } from './patient.entity';
import { PatientsController } from './patients.controller';
import { PatientsRepository } from './patients.repository';
import { PatientsService } from './patients.service';

@Module({
  imports: [TypeOrmModule.forFeature([Patient]), AccountsModule, EligibilityModule],
  controllers: [PatientsController],
  providers: [PatientsRepository, PatientsService, PatientLinksService],
  exports: [PatientsService, PatientLinksService],
})
export class PatientsModule {}
